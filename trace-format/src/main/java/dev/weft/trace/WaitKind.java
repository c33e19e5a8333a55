package dev.weft.trace;

/** The kind carried by WAIT_ENTER and NOTIFY events. Codes are a public contract. */
public final class WaitKind {
  public static final int OBJECT_WAIT = 1;
  public static final int CONDITION_AWAIT = 2;
  public static final int SLEEP = 3;
  public static final int PARK = 4;
  public static final int YIELD = 5;

  /**
   * An acquire of a synchronizer built on {@code AbstractQueuedSynchronizer} (or its long variant)
   * by the program or a library: what it waits for is the subclass's own rule (a latch of its own,
   * a lock, a gate), so the wait is known but not its waker.
   */
  public static final int SYNCHRONIZER = 6;

  /**
   * A blocking queue's {@code take}, {@code put}, their timed forms ({@code poll}, {@code offer}
   * with a timeout), their deque forms and {@code transfer}: waiting for an element, for room, or
   * for a taker. Since 1.4 a consumer's take names its queue ({@code wait_enter_on}) and a put
   * while a consumer waits is a {@code notify} of this kind naming the queue, the take's waker; a
   * put's wait for room has no recorded waker.
   */
  public static final int QUEUE = 7;

  /**
   * A selector's {@code select}: an event loop waiting for one of its channels to become ready. The
   * thread has nothing to do until the network brings it something; the waker is outside the
   * program.
   */
  public static final int SELECT = 8;

  /**
   * A server socket's {@code accept} ({@code ServerSocket} or {@code ServerSocketChannel}): a
   * listener waiting for a client to connect.
   */
  public static final int ACCEPT = 9;

  /**
   * A read from a connected socket's stream ({@code java.net.Socket}): waiting for the peer's data,
   * the read's own system call included. The peer's write is not an event, so the waker is not
   * known.
   */
  public static final int SOCKET_READ = 10;

  /**
   * {@code java.net.http.HttpClient.send}: waiting for a response, from the request's sending to
   * the response's body handled. The JDK's own threads do the I/O; the waker is not known.
   */
  public static final int HTTP_SEND = 11;

  /**
   * A take or timed poll of a blocking queue whose element the calling code takes as a task (it
   * casts the element to {@code Runnable}, {@code Callable} or a class implementing one): the run
   * loop of a pool of the program's or a library's own, waiting for its next task. The thread is
   * idle, as a JDK pool's worker between tasks.
   */
  public static final int NEXT_TASK = 12;

  /**
   * {@code Thread.start()}: the starting thread waits in the JVM while the new thread is created
   * and started (a system call, and the new thread's first steps). Time spent managing threads, not
   * the program's work.
   */
  public static final int THREAD_START = 13;

  /**
   * A {@code java.util.Timer}'s thread waiting until the first of its scheduled tasks comes due:
   * idle, waiting for a time, as a scheduled executor's worker waiting for a delayed task. (Its
   * wait for a task while none is scheduled is {@link #NEXT_TASK}.)
   */
  public static final int TIMER_DUE = 14;

  private WaitKind() {}

  /**
   * Whether a wait of this kind waits for the network to bring work ({@link #SELECT}, {@link
   * #ACCEPT}): the thread is idle, not held up by anything the program does.
   */
  public static boolean networkIdle(long kind) {
    return kind == SELECT || kind == ACCEPT;
  }

  /**
   * Whether a wait of this kind waits for a peer over the network: {@link #SOCKET_READ}, {@link
   * #HTTP_SEND}.
   */
  public static boolean networkPeer(long kind) {
    return kind == SOCKET_READ || kind == HTTP_SEND;
  }

  /**
   * Whether a wait of this kind is a network wait: {@link #networkIdle} or {@link #networkPeer}.
   */
  public static boolean network(long kind) {
    return networkIdle(kind) || networkPeer(kind);
  }

  /**
   * Whether a thread waiting with this kind is idle, waiting for work to come rather than held up
   * by anything the program does: {@link #networkIdle}, {@link #NEXT_TASK} or {@link #TIMER_DUE}.
   */
  public static boolean idle(long kind) {
    return networkIdle(kind) || kind == NEXT_TASK || kind == TIMER_DUE;
  }

  /** The lower_snake_case name of a wait kind code. */
  public static String name(long kind) {
    switch ((int) kind) {
      case OBJECT_WAIT:
        return "object_wait";
      case CONDITION_AWAIT:
        return "condition_await";
      case SLEEP:
        return "sleep";
      case PARK:
        return "park";
      case YIELD:
        return "yield";
      case SYNCHRONIZER:
        return "synchronizer";
      case QUEUE:
        return "queue";
      case SELECT:
        return "select";
      case ACCEPT:
        return "accept";
      case SOCKET_READ:
        return "socket_read";
      case HTTP_SEND:
        return "http_send";
      case NEXT_TASK:
        return "next_task";
      case THREAD_START:
        return "thread_start";
      case TIMER_DUE:
        return "timer_due";
      default:
        return "wait_" + kind;
    }
  }
}
