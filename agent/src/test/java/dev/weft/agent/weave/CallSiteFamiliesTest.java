package dev.weft.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.agent.constructs.BlockingQueues;
import dev.weft.agent.constructs.Conditions;
import dev.weft.agent.constructs.CountDownLatches;
import dev.weft.agent.constructs.CyclicBarriers;
import dev.weft.agent.constructs.ExecutorSites;
import dev.weft.agent.constructs.ForkJoinSites;
import dev.weft.agent.constructs.FutureSites;
import dev.weft.agent.constructs.NetworkWaits;
import dev.weft.agent.constructs.ParallelStreams;
import dev.weft.agent.constructs.Phasers;
import dev.weft.agent.constructs.ReadWriteLocks;
import dev.weft.agent.constructs.ReentrantLocks;
import dev.weft.agent.constructs.Semaphores;
import dev.weft.agent.constructs.Spins;
import dev.weft.agent.constructs.StampedLocks;
import dev.weft.agent.constructs.Synchronizers;
import dev.weft.agent.constructs.ThreadJoins;
import dev.weft.agent.constructs.Threads;
import dev.weft.agent.constructs.Waits;
import dev.weft.agent.record.RegionRegistry;
import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.LockFlags;
import dev.weft.trace.TraceWriter;
import dev.weft.trace.WaitKind;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.ServerSocket;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Type;

/**
 * Each call-site family applied to a sample class that calls its targets directly and through
 * method references, as the transformer applies it, and run in a child loader against a recording
 * sink: the events are the family's, and every call returns or throws exactly what it did unwoven.
 * Regions are written as their kinds, the sample's arguments as a0, a1, other objects by class.
 */
class CallSiteFamiliesTest {
  private static final int SHARED = LockFlags.SHARED;
  private static final int FAILED = LockFlags.FAILED;
  private static final int ABORTED = LockFlags.ABORTED;

  @TempDir Path tmp;
  private TraceWriter writer;
  private RegionRegistry regions;
  private RecordingSink sink;

  @BeforeEach
  void install() throws Exception {
    writer = TraceWriter.create(tmp.resolve("t"), TraceWriter.Options.defaults());
    regions = new RegionRegistry(writer);
    sink = new RecordingSink();
    sink.regionName = id -> regions.kind(id).name();
    WeftBridge.install(sink);
  }

  @AfterEach
  void uninstall() throws Exception {
    WeftBridge.install(null);
    Thread.interrupted();
    writer.close();
  }

  @Test
  void reentrantLocks() throws Exception {
    Woven w = weave(new ReentrantLocks(), LockSamples.class);
    List<String> held =
        List.of("lockRequest REENTRANT_LOCK a0", "lockAcquired a0 0", "lockReleased a0");
    // A free non-fair ReentrantLock is acquired by the bridge's first try, the call skipped.
    List<String> atOnce = List.of("lockAcquiredAtOnce REENTRANT_LOCK a0", "lockReleased a0");
    assertEquals(atOnce, w.run("lockAndUnlock", () -> args(new ReentrantLock())));
    assertEquals(
        List.of(
            "lockAcquiredAtOnce REENTRANT_LOCK a0",
            "lockAcquiredAtOnce REENTRANT_LOCK a0",
            "lockReleased a0",
            "lockReleased a0"),
        w.run("lockTwiceInterruptibly", () -> args(new ReentrantLock())));
    // A fair lock's tryLock() barges where lock() queues; a subclass may override lock(); a lock
    // held by another thread makes the thread wait: the call itself, its request timed apart.
    assertEquals(held, w.run("lockAndUnlock", () -> args(new ReentrantLock(true))));
    assertEquals(held, w.run("lockAndUnlock", () -> args(new ReentrantLock() {})));
    assertEquals(held, w.run("lockAndUnlock", () -> args(heldUntilQueued())));
    assertEquals(held, w.run("tryLockByReference", () -> args(new ReentrantLock())));
    assertEquals(
        List.of("lockRequest REENTRANT_LOCK a0", "lockAcquired a0 " + ABORTED),
        w.run("lockInterruptiblyWhenInterrupted", () -> args(new ReentrantLock())));
    assertEquals(List.of(), w.run("readThenWrite", () -> args(new ReentrantReadWriteLock())));
  }

  @Test
  void reentrantLocksWithoutFirstTries() throws Exception {
    // An attached agent's hooks inside ReentrantLock would take the bridge's tryLock() for the
    // program's: the call makes its own first attempt.
    sink.noLockFirstTries();
    Woven w = weave(new ReentrantLocks(), LockSamples.class);
    assertEquals(
        List.of("lockRequest REENTRANT_LOCK a0", "lockAcquired a0 0", "lockReleased a0"),
        w.run("lockAndUnlock", () -> args(new ReentrantLock())));
  }

  /** A non-fair lock that another thread holds until a thread queues for it. */
  private static ReentrantLock heldUntilQueued() {
    ReentrantLock lock = new ReentrantLock();
    CountDownLatch taken = new CountDownLatch(1);
    Thread holder =
        new Thread(
            () -> {
              lock.lock();
              taken.countDown();
              while (!lock.hasQueuedThreads()) {
                LockSupport.parkNanos(100_000L);
              }
              lock.unlock();
            });
    holder.start();
    try {
      taken.await();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    return lock;
  }

  @Test
  void readWriteLocks() throws Exception {
    Woven w = weave(new ReadWriteLocks(), LockSamples.class);
    assertEquals(
        List.of(
            "lockRequest READ_WRITE_LOCK ReadLock",
            "lockAcquired ReadLock " + SHARED,
            "lockReleased ReadLock",
            "lockRequest READ_WRITE_LOCK WriteLock",
            "lockAcquired WriteLock 0",
            "lockReleased WriteLock"),
        w.run("readThenWrite", () -> args(new ReentrantReadWriteLock())));
  }

  @Test
  void stampedLocks() throws Exception {
    Woven w = weave(new StampedLocks(), LockSamples.class);
    assertEquals(
        List.of(
            "lockRequest STAMPED_LOCK a0",
            "lockAcquired a0 0",
            "lockReleased a0",
            "lockRequest STAMPED_LOCK a0",
            "lockAcquired a0 " + SHARED,
            "lockReleased a0"),
        w.run("stamps", () -> args(new StampedLock())));
    assertEquals(
        List.of("lockReleased a0"), w.run("unlockReadNotHeld", () -> args(new StampedLock())));
  }

  @Test
  void semaphores() throws Exception {
    Woven w = weave(new Semaphores(), LockSamples.class);
    assertEquals(
        List.of(
            "lockRequest SEMAPHORE a0",
            "lockAcquired a0 " + SHARED,
            "lockReleased a0",
            "lockRequest SEMAPHORE a0",
            "lockAcquired a0 " + SHARED,
            "lockRequest SEMAPHORE a0",
            "lockAcquired a0 " + (SHARED | FAILED)),
        w.run("permits", () -> args(new Semaphore(1))));
    assertEquals(
        List.of("lockRequest SEMAPHORE a0", "lockAcquired a0 " + (SHARED | ABORTED)),
        w.run("acquireWhenInterrupted", () -> args(new Semaphore(0))));
  }

  @Test
  void lockSubclassesThroughTheirOwnTypes() throws Exception {
    Supplier<Object[]> locks =
        () ->
            args(
                new LockSamples.OwnLock(),
                new LockSamples.OwnSemaphore(1),
                new LockSamples.OwnStampedLock());
    assertEquals(
        List.of("lockRequest REENTRANT_LOCK a0", "lockAcquired a0 0", "lockReleased a0"),
        weave(new ReentrantLocks(), LockSamples.class).run("subclasses", locks));
    assertEquals(
        List.of("lockRequest SEMAPHORE a1", "lockAcquired a1 " + SHARED, "lockReleased a1"),
        weave(new Semaphores(), LockSamples.class).run("subclasses", locks));
    assertEquals(
        List.of("lockRequest STAMPED_LOCK a2", "lockAcquired a2 0", "lockReleased a2"),
        weave(new StampedLocks(), LockSamples.class).run("subclasses", locks));
  }

  @Test
  void barrierSubclassesThroughTheirOwnTypes() throws Exception {
    Supplier<Object[]> barriers =
        () ->
            args(
                new BarrierSamples.OwnLatch(1),
                new BarrierSamples.OwnPhaser(1),
                new BarrierSamples.OwnBarrier(1));
    assertEquals(
        List.of(
            "barrierEnter COUNT_DOWN_LATCH a0 0",
            "barrierExit COUNT_DOWN_LATCH a0 0 " + BarrierOutcome.LAST,
            "barrierEnter COUNT_DOWN_LATCH a0 0",
            "barrierExit COUNT_DOWN_LATCH a0 0 0"),
        weave(new CountDownLatches(), BarrierSamples.class).run("subclasses", barriers));
    assertEquals(
        List.of("barrierEnter PHASER a1 0", "barrierExit PHASER a1 0 0"),
        weave(new Phasers(), BarrierSamples.class).run("subclasses", barriers));
    assertEquals(
        List.of(
            "barrierEnter CYCLIC_BARRIER a2 0",
            "barrierExit CYCLIC_BARRIER a2 0 " + BarrierOutcome.LAST),
        weave(new CyclicBarriers(), BarrierSamples.class).run("subclasses", barriers));
  }

  @Test
  void cyclicBarriers() throws Exception {
    Woven w = weave(new CyclicBarriers(), BarrierSamples.class);
    List<String> alone =
        List.of(
            "barrierEnter CYCLIC_BARRIER a0 0",
            "barrierExit CYCLIC_BARRIER a0 0 " + BarrierOutcome.LAST);
    assertEquals(concat(alone, alone), w.run("awaitAlone", () -> args(new CyclicBarrier(1))));
    assertEquals(
        List.of(
            "barrierEnter CYCLIC_BARRIER a0 0",
            "barrierExit CYCLIC_BARRIER a0 0 " + BarrierOutcome.INTERRUPTED),
        w.run("awaitWhenInterrupted", () -> args(new CyclicBarrier(2))));
  }

  @Test
  void phasers() throws Exception {
    Woven w = weave(new Phasers(), BarrierSamples.class);
    assertEquals(
        List.of(
            "barrierEnter PHASER a0 0",
            "barrierExit PHASER a0 0 0",
            "barrierEnter PHASER a0 1",
            "barrierExit PHASER a0 1 0"),
        w.run("phases", () -> args(new Phaser(1))));
    assertEquals(
        List.of("barrierEnter PHASER a0 0", "barrierExit PHASER a0 0 " + BarrierOutcome.TIMEOUT),
        w.run("awaitPhaseTimesOut", () -> args(new Phaser(1))));
  }

  @Test
  void countDownLatches() throws Exception {
    Woven w = weave(new CountDownLatches(), BarrierSamples.class);
    String enter = "barrierEnter COUNT_DOWN_LATCH a0 0";
    String exit = "barrierExit COUNT_DOWN_LATCH a0 0 ";
    assertEquals(
        List.of(enter, exit + BarrierOutcome.LAST, enter, exit + 0, enter, exit + 0),
        w.run("latch", () -> args(new CountDownLatch(1))));
    assertEquals(
        List.of(enter, exit + BarrierOutcome.TIMEOUT),
        w.run("latchTimesOut", () -> args(new CountDownLatch(1))));
    assertEquals(
        List.of(enter, exit + BarrierOutcome.INTERRUPTED),
        w.run("latchWhenInterrupted", () -> args(new CountDownLatch(1))));
  }

  @Test
  void waits() throws Exception {
    Woven w = weave(new Waits(), WaitSamples.class);
    List<String> waited =
        List.of(
            "lockReleased a0",
            "waitEnter OBJECT_WAIT " + WaitKind.OBJECT_WAIT,
            "waitExit OBJECT_WAIT",
            "lockRequest OBJECT_WAIT a0",
            "lockAcquired a0 " + LockFlags.AFTER_WAIT);
    assertEquals(
        concat(waited, List.of("notify NOTIFY a0 " + WaitKind.OBJECT_WAIT)),
        w.run("objectWait", () -> args(new Object())));
    assertEquals(waited, w.run("waitWithoutMonitor", () -> args(new Object())));
    assertEquals(
        List.of(
            "waitEnter SLEEP " + WaitKind.SLEEP,
            "waitExit SLEEP",
            "notify NOTIFY Thread " + WaitKind.PARK,
            "parkEnter PARK",
            "waitExit PARK"),
        w.run("sleepAndPark", CallSiteFamiliesTest::args));
    assertEquals(
        List.of("waitEnter SLEEP " + WaitKind.SLEEP, "waitExit SLEEP"),
        w.run("sleepWhenInterrupted", CallSiteFamiliesTest::args));
  }

  @Test
  void conditions() throws Exception {
    Woven w = weave(new Conditions(), WaitSamples.class);
    List<String> awaited =
        List.of(
            "lockReleased a1",
            "waitEnter CONDITION_AWAIT " + WaitKind.CONDITION_AWAIT,
            "waitExit CONDITION_AWAIT",
            "lockRequest CONDITION_AWAIT a1",
            "lockAcquired a1 " + LockFlags.AFTER_WAIT);
    assertEquals(
        concat(List.of("notify NOTIFY a1 " + WaitKind.CONDITION_AWAIT), awaited),
        w.run(
            "conditionAwait",
            () -> {
              ReentrantLock lock = new ReentrantLock();
              return args(lock, lock.newCondition());
            }));
    assertEquals(
        awaited.stream().map(e -> e.replace("a1", "a0")).toList(),
        w.run("awaitWithoutLock", () -> args(new ReentrantLock().newCondition())));
  }

  @Test
  void synchronizers() throws Exception {
    Woven w = weave(new Synchronizers(), WaitSamples.class);
    List<String> wait =
        List.of("waitEnter SYNCHRONIZER " + WaitKind.SYNCHRONIZER, "waitExit SYNCHRONIZER");
    // Releases are not events; each acquire is a wait, also by reference, also when it fails.
    assertEquals(
        concat(wait, concat(wait, wait)),
        w.run("ownLatch", () -> args(new WaitSamples.OwnLatch(1))));
    assertEquals(wait, w.run("ownLatchTimesOut", () -> args(new WaitSamples.OwnLatch(1))));
    assertEquals(wait, w.run("ownLatchWhenInterrupted", () -> args(new WaitSamples.OwnLatch(1))));
    assertEquals(concat(wait, wait), w.run("ownMutex", () -> args(new WaitSamples.OwnMutex())));
    // The JDK's own synchronizers are other families' constructs, never counted twice here.
    assertTrue(
        w.run(
                "conditionAwait",
                () -> {
                  ReentrantLock lock = new ReentrantLock();
                  return args(lock, lock.newCondition());
                })
            .isEmpty());
  }

  @Test
  void blockingQueues() throws Exception {
    Woven w = weave(new BlockingQueues(), WaitSamples.class);
    List<String> wait =
        List.of("waitEnter BLOCKING_QUEUE " + WaitKind.QUEUE, "waitExit BLOCKING_QUEUE");
    // Puts that put their element are hand-overs (the sink says a consumer always waits): put and
    // putFirst that found room in a JDK queue (offers, made at once), offer(e); takes and timed
    // polls name their queue; poll() is nothing; a timed tryTransfer that found no taker waited
    // and put nothing.
    assertEquals(
        List.of(
            "queueHandedOver BLOCKING_QUEUE a0",
            "queueHandedOver BLOCKING_QUEUE a0",
            "queueTakeEnter BLOCKING_QUEUE a0",
            "queueTakeExit BLOCKING_QUEUE",
            "queueTakeEnter BLOCKING_QUEUE a0",
            "queueTakeExit BLOCKING_QUEUE",
            "queueHandedOver BLOCKING_QUEUE a1",
            "queueTakeEnter BLOCKING_QUEUE a1",
            "queueTakeExit BLOCKING_QUEUE",
            "waitEnter BLOCKING_QUEUE " + WaitKind.QUEUE,
            "waitExit BLOCKING_QUEUE"),
        w.run(
            "queues",
            () ->
                args(
                    new ArrayBlockingQueue<>(4),
                    new LinkedBlockingDeque<>(),
                    new LinkedTransferQueue<>())));
    assertEquals(
        List.of("queueTakeEnter BLOCKING_QUEUE a0", "queueTakeExit BLOCKING_QUEUE"),
        w.run("takeWhenInterrupted", () -> args(new ArrayBlockingQueue<>(1))));
    // A put that finds no room waits; so does every put into a queue class of the program's own;
    // each put its element when its wait ended.
    assertEquals(
        concat(
            concat(wait, List.of("queueHandedOver BLOCKING_QUEUE a0")),
            concat(wait, List.of("queueHandedOver BLOCKING_QUEUE a1"))),
        w.run(
            "putsThatWait",
            () -> {
              ArrayBlockingQueue<Object> full = new ArrayBlockingQueue<>(1);
              full.add("a");
              Thread caller = Thread.currentThread();
              Thread taker = // unwoven: its poll records nothing; it makes room once put waits
                  new Thread(
                      () -> {
                        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                        while (caller.getState() != Thread.State.WAITING
                            && System.nanoTime() < until) {
                          LockSupport.parkNanos(100_000L);
                        }
                        full.poll();
                      });
              taker.setDaemon(true);
              taker.start();
              return args(full, new WaitSamples.OwnQueue());
            }));
    // An interrupted thread's put throws even with room: it is made, as a wait, and put nothing.
    assertEquals(wait, w.run("putWhenInterrupted", () -> args(new ArrayBlockingQueue<>(4))));
    // A worker's take of its next task (the element cast to a task at once) is next_task, idle and
    // naming no queue; a String, or a task kept as an Object, is a consumer's take.
    List<String> nextTask =
        List.of("waitEnter BLOCKING_QUEUE " + WaitKind.NEXT_TASK, "waitExit BLOCKING_QUEUE");
    List<String> puts =
        List.of(
            "queueHandedOver BLOCKING_QUEUE a0",
            "queueHandedOver BLOCKING_QUEUE a0",
            "queueHandedOver BLOCKING_QUEUE a1",
            "queueHandedOver BLOCKING_QUEUE a2",
            "queueHandedOver BLOCKING_QUEUE a3");
    assertEquals(
        concat(
            concat(puts, concat(nextTask, concat(nextTask, nextTask))),
            List.of(
                "queueTakeEnter BLOCKING_QUEUE a3",
                "queueTakeExit BLOCKING_QUEUE",
                "queueTakeEnter BLOCKING_QUEUE a0",
                "queueTakeExit BLOCKING_QUEUE")),
        w.run(
            "taskTakes",
            () ->
                args(
                    new ArrayBlockingQueue<>(4),
                    new ArrayBlockingQueue<>(4),
                    new ArrayBlockingQueue<>(4),
                    new ArrayBlockingQueue<>(4))));
  }

  /** Calls that put an element and never wait: offer, add and their deque forms, tryTransfer. */
  @Test
  void handOversThatNeverWait() throws Exception {
    Woven w = weave(new BlockingQueues(), WaitSamples.class);
    // offer and add put; offerLast into a full deque and tryTransfer without a taker put nothing;
    // addFirst puts; add into a full queue throws and puts nothing.
    assertEquals(
        List.of(
            "queueHandedOver BLOCKING_QUEUE a0",
            "queueHandedOver BLOCKING_QUEUE a0",
            "queueHandedOver BLOCKING_QUEUE a1"),
        w.run(
            "handOvers",
            () ->
                args(
                    new ArrayBlockingQueue<>(2),
                    new LinkedBlockingDeque<>(1),
                    new LinkedTransferQueue<>())));
  }

  @Test
  void networkWaits() throws Exception {
    Woven w = weave(new NetworkWaits(), WaitSamples.class);
    List<String> select = List.of("waitEnter SELECTOR " + WaitKind.SELECT, "waitExit SELECTOR");
    List<String> twoSelects = new java.util.ArrayList<>(select);
    twoSelects.addAll(select); // select(1) and select(ms) in a lambda; selectNow is not a wait
    try (Selector selector = Selector.open()) {
      assertEquals(twoSelects, w.run("selects", () -> args(selector)));
    }
    List<String> accept = List.of("waitEnter SOCKET " + WaitKind.ACCEPT, "waitExit SOCKET");
    List<String> twoAccepts = new java.util.ArrayList<>(accept);
    twoAccepts.addAll(accept); // the timed-out accept throws: its wait ends all the same
    try (ServerSocket server = new ServerSocket(0);
        ServerSocketChannel channel = ServerSocketChannel.open()) {
      channel.bind(null);
      assertEquals(twoAccepts, w.run("accepts", () -> args(server, channel)));
    }
    assertEquals(
        List.of("waitEnter SOCKET " + WaitKind.HTTP_SEND, "waitExit SOCKET"),
        w.run("httpSendRefused", () -> args(java.net.http.HttpClient.newHttpClient())));
  }

  @Test
  void spins() throws Exception {
    Woven w = weave(new Spins(), WaitSamples.class);
    List<String> spin = List.of("spinEnter SPIN", "spinExit SPIN");
    assertEquals(concat(spin, spin), w.run("spin", CallSiteFamiliesTest::args));
  }

  @Test
  void forkJoinSites() throws Exception {
    Woven w = weave(new ForkJoinSites(), ParallelSamples.class);
    List<String> region =
        List.of(
            "fork FORK_JOIN_TASK ForkJoinPool",
            "joinWaitEnter FORK_JOIN_TASK null",
            "joinWaitExit FORK_JOIN_TASK",
            "join FORK_JOIN_TASK ForkJoinPool");
    assertEquals(region, w.run("invokeOutsidePool", () -> args(new ParallelSamples.Answer(false))));
    assertEquals(region, w.run("invokeOutsidePool", () -> args(new ParallelSamples.Answer(true))));
    assertEquals(
        List.of("joinWaitEnter FORK_JOIN_TASK a0", "joinWaitExit FORK_JOIN_TASK"),
        w.run("forkAndJoinByReference", () -> args(new ParallelSamples.Answer(false))));
  }

  @Test
  void parallelStreams() throws Exception {
    Woven w = weave(new ParallelStreams(), ParallelSamples.class);
    List<String> region =
        List.of(
            "fork PARALLEL_STREAM ForkJoinPool",
            "joinWaitEnter PARALLEL_STREAM null",
            "joinWaitExit PARALLEL_STREAM",
            "join PARALLEL_STREAM ForkJoinPool");
    assertEquals(region, w.run("parallelSum", CallSiteFamiliesTest::args));
    assertEquals(region, w.run("countByReference", () -> args(true)));
    assertEquals(List.of(), w.run("countByReference", () -> args(false)));
    assertEquals(region, w.run("parallelThrows", CallSiteFamiliesTest::args));
  }

  @Test
  void executorSites() throws Exception {
    Woven w = weave(new ExecutorSites(), ParallelSamples.class);
    assertEquals(
        List.of(
            "enter EXECUTOR",
            "exit EXECUTOR",
            "fork EXECUTOR a0",
            "joinWaitEnter EXECUTOR null",
            "joinWaitExit EXECUTOR",
            "join EXECUTOR a0",
            "enter EXECUTOR",
            "exit EXECUTOR",
            "joinWaitEnter AWAIT_TERMINATION null",
            "joinWaitExit AWAIT_TERMINATION"),
        w.run("executorCalls", () -> args(Executors.newSingleThreadExecutor())));
    assertEquals(
        List.of("enter EXECUTOR", "exit EXECUTOR"),
        w.run("executeNull", () -> args(Executors.newSingleThreadExecutor())));
  }

  @Test
  void futureSites() throws Exception {
    Woven w = weave(new FutureSites(), ParallelSamples.class);
    assertEquals(
        List.of(
            "joinWaitEnter COMPLETABLE_FUTURE CompletableFuture",
            "joinWaitExit COMPLETABLE_FUTURE",
            "joinWaitEnter FUTURE_GET FutureTask",
            "joinWaitExit FUTURE_GET"),
        w.run("futures", CallSiteFamiliesTest::args));
    assertEquals(
        List.of(
            "joinWaitEnter COMPLETABLE_FUTURE CompletableFuture",
            "joinWaitExit COMPLETABLE_FUTURE"),
        w.run("failedJoin", CallSiteFamiliesTest::args));
  }

  @Test
  void threadJoins() throws Exception {
    Woven w = weave(new ThreadJoins(), ParallelSamples.class);
    List<String> joined = List.of("joinWaitEnter THREAD_JOIN a0", "joinWaitExit THREAD_JOIN");
    assertEquals(joined, w.run("startAndJoin", () -> args(new Thread(() -> {}))));
    assertEquals(
        joined,
        w.run(
            "joinWhenInterrupted",
            () ->
                args(new Thread(() -> LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20))))));
  }

  @Test
  void threads() throws Exception {
    Woven w = weave(new Threads(), ParallelSamples.class);
    // The start call is a wait of kind thread_start (time managing threads), also when it throws
    // (a thread started twice).
    List<String> started =
        List.of(
            "threadCreate THREAD_START a0",
            "waitEnter THREAD_START " + WaitKind.THREAD_START,
            "waitExit THREAD_START");
    assertEquals(started, w.run("startAndJoin", () -> args(new Thread(() -> {}))));
    List<String> twice = new ArrayList<>(started);
    twice.addAll(started);
    assertEquals(twice, w.run("startTwice", () -> args(new Thread(() -> {}))));
  }

  @Test
  void theScanSkipsClassesWithoutTargets() throws Exception {
    WeaveTarget target = target(LockSamples.class);
    assertFalse(new CyclicBarriers().wantsApplicationClass(target));
    assertFalse(new Spins().wantsApplicationClass(target));
    assertTrue(new Semaphores().wantsApplicationClass(target));
  }

  private static Object[] args(Object... values) {
    return values;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }

  private WeaveTarget target(Class<?> sample) throws Exception {
    try (InputStream in = sample.getResourceAsStream(sample.getSimpleName() + ".class")) {
      return new WeaveTarget(
          Type.getInternalName(sample), sample.getClassLoader(), in.readAllBytes(), false, regions);
    }
  }

  /** Weaves {@code sample} with {@code family} as the transformer does. */
  private Woven weave(ConstructInstrumentation family, Class<?> sample) throws Exception {
    WeaveTarget target = target(sample);
    assertTrue(family.wantsApplicationClass(target), "the scan finds the targets");
    ClassReader reader = target.reader();
    ClassWriter out = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
    reader.accept(
        new SourceFileRecorder(family.visitApplicationClass(out, target), target),
        ClassReader.EXPAND_FRAMES);
    assertTrue(target.isChanged());
    return new Woven(sample, define(sample.getName(), out.toByteArray()));
  }

  /** A sample class and its woven copy. */
  private final class Woven {
    private final Class<?> original;
    private final Class<?> woven;

    Woven(Class<?> original, Class<?> woven) {
      this.original = original;
      this.woven = woven;
    }

    /**
     * Runs {@code method} of the original and of the woven class, each with fresh {@code
     * arguments}: both return the same or throw the same; returns the woven run's events.
     */
    List<String> run(String method, Supplier<Object[]> arguments) throws Exception {
      String expected = outcome(original, method, arguments.get());
      assertEquals(List.of(), take(), "the original records nothing");
      Object[] values = arguments.get();
      Map<Object, String> names = new IdentityHashMap<>();
      for (int i = 0; i < values.length; i++) {
        names.put(values[i], "a" + i);
      }
      sink.objectName =
          o -> o == null ? "null" : names.getOrDefault(o, o.getClass().getSimpleName());
      assertEquals(expected, outcome(woven, method, values), method);
      return take();
    }
  }

  private List<String> take() {
    synchronized (sink.calls) {
      List<String> out = List.copyOf(sink.calls);
      sink.calls.clear();
      return out;
    }
  }

  /** "returned VALUE" or "threw CLASS: MESSAGE"; the interrupt status is cleared after. */
  private static String outcome(Class<?> c, String method, Object[] arguments) throws Exception {
    for (Method m : c.getMethods()) {
      if (m.getName().equals(method)) {
        try {
          return "returned " + m.invoke(null, arguments);
        } catch (InvocationTargetException e) {
          Throwable t = e.getCause();
          return "threw " + t.getClass().getName() + ": " + t.getMessage();
        } finally {
          Thread.interrupted();
        }
      }
    }
    throw new NoSuchMethodException(method);
  }

  /** Defines {@code bytes} as class {@code name} in a child loader. */
  private static Class<?> define(String name, byte[] bytes) throws Exception {
    ClassLoader loader =
        new ClassLoader(CallSiteFamiliesTest.class.getClassLoader()) {
          @Override
          protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
            if (n.equals(name)) {
              synchronized (getClassLoadingLock(n)) {
                Class<?> c = findLoadedClass(n);
                return c != null ? c : defineClass(n, bytes, 0, bytes.length);
              }
            }
            return super.loadClass(n, resolve);
          }
        };
    return loader.loadClass(name);
  }
}
