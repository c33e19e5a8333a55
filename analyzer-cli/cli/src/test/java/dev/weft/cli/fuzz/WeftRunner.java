package dev.weft.cli.fuzz;

import dev.weft.cli.WeftCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Runs {@code weft} in-process through picocli, as {@code WeftCommand.main} does, on a thread of
 * its own with a time limit, capturing stdout and stderr and any {@link Throwable} that escapes (an
 * {@link OutOfMemoryError} or {@link StackOverflowError} is a result here, not a crash of the
 * test).
 */
final class WeftRunner implements AutoCloseable {
  /** What one run did. */
  record Run(int exit, String out, String err, Throwable thrown, String hang, long nanos) {
    boolean hung() {
      return hang != null;
    }

    String firstErrLine() {
      return firstLine(err);
    }

    String firstOutLine() {
      return firstLine(out);
    }

    private static String firstLine(String s) {
      String t = s.strip();
      int nl = t.indexOf('\n');
      return nl < 0 ? t : t.substring(0, nl);
    }
  }

  /** Kernel wait channels of a thread waiting on a pipe or FIFO. */
  private static final Pattern PIPE_WAIT = Pattern.compile("partner|pipe|fifo");

  /** Whether this system has {@code /proc/self/task/TID/wchan} (Linux). */
  private static final boolean PROC = Files.isDirectory(Path.of("/proc/self/task"));

  private static final AtomicLong RUNS = new AtomicLong();

  private final ExecutorService pool =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "weft-fuzz-run");
            t.setDaemon(true);
            return t;
          });
  private final long timeoutNanos;

  WeftRunner(long timeoutMillis) {
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
  }

  /**
   * Runs {@code weft args}. A run still going after the time limit is a hang. So is, at once, a run
   * that waits on {@code fifo} (a FIFO put in the trace, or null): nothing will ever write to it.
   * Linux says so in {@code /proc/self/task/TID/wchan} ({@code wait_for_partner} in an open, {@code
   * pipe_read} in a read: seen twice, 10 ms apart); where the kernel does not say, a run that sits
   * in a native open or read for 300 ms is taken to wait on it. A hung run's thread is released by
   * opening and closing the FIFO's other end, or stopped.
   */
  Run run(String[] args, Path fifo) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    AtomicReference<Thread> runner = new AtomicReference<>();
    long start = System.nanoTime();
    Future<Run> f =
        pool.submit(
            () -> {
              // A name of its own (at most 15 characters: Linux's limit) to find it in /proc.
              Thread.currentThread().setName("wfz-" + RUNS.incrementAndGet());
              runner.set(Thread.currentThread());
              // As WeftCommand.main builds it: with only the subcommand that runs.
              CommandLine cl = WeftCommand.newCommandLine(new WeftCommand(Map.of(), false), args);
              cl.setOut(new PrintWriter(out, true));
              cl.setErr(new PrintWriter(err, true));
              int exit;
              Throwable thrown = null;
              try {
                exit = cl.execute(args);
              } catch (Throwable t) { // what WeftCommand.main would turn into exit 3
                thrown = t;
                exit = -1;
              }
              return new Run(
                  exit, out.toString(), err.toString(), thrown, null, System.nanoTime() - start);
            });
    String hang = null;
    long blockedSince = -1;
    int pipeWaits = 0;
    while (true) {
      try {
        return f.get(
            fifo == null ? timeoutNanos : TimeUnit.MILLISECONDS.toNanos(10), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        long now = System.nanoTime();
        if (now - start >= timeoutNanos) {
          hang = "no result after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms";
          break;
        }
        if (fifo != null) {
          Thread t = runner.get();
          String wchan = PROC && t != null ? wchan(t.getName()) : null;
          if (wchan != null && !wchan.isEmpty() && !wchan.equals("0")) {
            // The kernel says what the thread waits for.
            blockedSince = -1;
            pipeWaits = PIPE_WAIT.matcher(wchan).find() ? pipeWaits + 1 : 0;
            if (pipeWaits >= 2) {
              hang = "blocked on the FIFO " + fifo.getFileName() + " (" + wchan + ")";
              break;
            }
          } else if (!inNativeIo(t)) {
            // Running, or no /proc (or a kernel that hides wait channels): the stack says more.
            blockedSince = -1;
          } else if (blockedSince < 0) {
            blockedSince = now;
          } else if (now - blockedSince >= TimeUnit.MILLISECONDS.toNanos(300)) {
            hang = "blocked on the FIFO " + fifo.getFileName();
            break;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } catch (ExecutionException e) {
        throw new IllegalStateException(e.getCause());
      }
    }
    release(f, fifo, runner.get());
    return new Run(-1, out.toString(), err.toString(), null, hang, System.nanoTime() - start);
  }

  /** What the thread named {@code name} waits for in the kernel, or null when it is not found. */
  private static String wchan(String name) {
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path task : tasks) {
        try {
          if (Files.readString(task.resolve("comm")).strip().equals(name)) {
            return Files.readString(task.resolve("wchan")).strip();
          }
        } catch (IOException e) {
          // the thread ended meanwhile
        }
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  /** Whether {@code t} is in a native method of file I/O (opening or reading a file). */
  private static boolean inNativeIo(Thread t) {
    if (t == null) {
      return false;
    }
    StackTraceElement[] stack = t.getStackTrace();
    if (stack.length == 0 || !stack[0].isNativeMethod()) {
      return false;
    }
    String c = stack[0].getClassName();
    return c.startsWith("java.io.") || c.startsWith("sun.nio.");
  }

  /**
   * Gives a hung run its FIFO's other end until it finishes (at most 5 s): an open of the FIFO for
   * reading returns once a writer exists, and a read returns end-of-file once it is gone again.
   */
  private static void release(Future<Run> f, Path fifo, Thread thread) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (fifo != null && !f.isDone() && System.nanoTime() < deadline && Files.exists(fifo)) {
      try (RandomAccessFile other = new RandomAccessFile(fifo.toFile(), "rw")) {
        Thread.sleep(5);
      } catch (IOException e) {
        break;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      try {
        f.get(5, TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        // still running
      }
    }
    boolean finished = f.isDone();
    f.cancel(true);
    if (thread != null && !finished) {
      stop(thread);
    }
  }

  /**
   * Stops a run that does not end by itself (e.g. a quadratic analysis of a deep nesting), so that
   * it does not take a core and memory from every case after it. {@link Thread#stop} is the only
   * way to end a computation that never looks at its interrupt flag; where the JDK no longer
   * supports it, the thread is left behind.
   */
  @SuppressWarnings({"deprecation", "removal"})
  private static void stop(Thread thread) {
    try {
      thread.stop();
    } catch (UnsupportedOperationException e) {
      // JDK 20 and later: nothing more can be done
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
