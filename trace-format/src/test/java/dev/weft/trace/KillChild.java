package dev.weft.trace;

import java.nio.file.Path;

/**
 * The child JVM of {@link KillTest}: threads write a known event sequence as fast as they can and
 * report progress on stdout ("written STREAM COUNT", after each batch is committed) until the
 * parent kills the process. Stops by itself after a minute, should the parent be gone.
 */
public final class KillChild {
  static final int REGION_WORK = 1;
  static final int REGION_LOCK = 2;
  static final int REGION_SUBMIT = 3;
  static final long LOCK = 7;
  static final int BATCH = 8 * 500;

  private KillChild() {}

  /** The {@code i}th event of every stream: a cycle of 8 events (region, lock, task). */
  static Event expected(int stream, long i) {
    long t = 1_000_000L + i * 100;
    long task = i / 8 + 1;
    switch ((int) (i % 8)) {
      case 0:
        return new Event(EventKind.ENTER, t, stream, new long[] {REGION_WORK});
      case 1:
        return new Event(EventKind.LOCK_REQUEST, t, stream, new long[] {REGION_LOCK, LOCK});
      case 2:
        return new Event(EventKind.LOCK_ACQUIRED, t, stream, new long[] {LOCK, 0});
      case 3:
        return new Event(EventKind.LOCK_RELEASED, t, stream, new long[] {LOCK});
      case 4:
        return new Event(EventKind.TASK_CREATE, t, stream, new long[] {REGION_SUBMIT, task, 0});
      case 5:
        return new Event(EventKind.TASK_BEGIN, t, stream, new long[] {task});
      case 6:
        return new Event(EventKind.TASK_END, t, stream, new long[] {task});
      default:
        return new Event(EventKind.EXIT, t, stream, new long[] {REGION_WORK});
    }
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int threads = Integer.parseInt(args[1]);
    TraceWriter.Options options =
        TraceWriter.Options.defaults().withWindows(64 * 1024, 1 << 20).withMaxBytes(512L << 20);
    TraceWriter w = TraceWriter.create(dir, options);
    w.defineClock(new ClockDef(1_000_000L, System.currentTimeMillis() * 1_000_000L, 1));
    w.defineRegion(
        new RegionDef(REGION_WORK, ConstructKind.USER_REGION, "work", "K", "run", "K.java", 1, 9));
    w.defineRegion(
        new RegionDef(
            REGION_LOCK, ConstructKind.REENTRANT_LOCK, "lock", "K", "run", "K.java", 3, 3));
    w.defineRegion(
        new RegionDef(REGION_SUBMIT, ConstructKind.EXECUTOR, "submit", "K", "run", "K.java", 5, 5));
    long deadline = System.nanoTime() + 60_000_000_000L;
    for (int n = 0; n < threads; n++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  StreamWriter s = w.openStream(Thread.currentThread().getId(), "w", 0, 0, 0);
                  for (long i = 0; System.nanoTime() < deadline; ) {
                    for (long end = i + BATCH; i < end; i++) {
                      Writes.write(
                          s,
                          expected(s.id(), i).kind(),
                          expected(s.id(), i).time(),
                          expected(s.id(), i).fields());
                    }
                    synchronized (System.out) {
                      System.out.println("written " + s.id() + " " + i);
                      System.out.flush();
                    }
                  }
                } catch (Exception e) {
                  e.printStackTrace();
                }
              });
      thread.start();
    }
  }
}
