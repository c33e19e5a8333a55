package dev.weft.agentit.apps.parallel;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * JDK 21+ ground truth for virtual threads that unmount inside a section: {@code args[0]} virtual
 * threads each take one of {@code args[1]} {@code ReentrantLock}s {@code args[2]} times around a 1
 * ms sleep (the sleep unmounts the holder, which may resume on another carrier). Each thread
 * measures its own lock waits (from before {@code lock()} to after it) and the app writes them to
 * {@code args[3]}, one line {@code javaId nanos} per thread; stdout is the same on every run.
 */
public final class VirtualLocksApp {
  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    int lockCount = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    Path log = Path.of(args[3]);
    ReentrantLock[] locks = new ReentrantLock[lockCount];
    for (int i = 0; i < lockCount; i++) {
      locks[i] = new ReentrantLock();
    }
    AtomicLongArray ids = new AtomicLongArray(n);
    AtomicLongArray waits = new AtomicLongArray(n);
    AtomicInteger sections = new AtomicInteger();
    Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
    Method unstarted =
        Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class);
    List<Thread> threads = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int k = i;
      Runnable body =
          () -> {
            ids.set(k, Thread.currentThread().getId());
            ReentrantLock lock = locks[k % lockCount];
            long waited = 0;
            for (int r = 0; r < rounds; r++) {
              long asked = System.nanoTime();
              lock.lock();
              waited += System.nanoTime() - asked;
              try {
                Thread.sleep(1);
                sections.incrementAndGet();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                lock.unlock();
              }
            }
            waits.set(k, waited);
          };
      threads.add((Thread) unstarted.invoke(builder, body));
    }
    // First uses, not measured: a tool's work at a lock's first sight and at the first virtual
    // threads' first locks (class loading) would be in the threads' own measurements only.
    for (ReentrantLock lock : locks) {
      lock.lock();
      lock.unlock();
    }
    ReentrantLock warmUp = new ReentrantLock();
    List<Thread> warmUps = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      Thread t =
          (Thread)
              unstarted.invoke(
                  builder,
                  (Runnable)
                      () -> {
                        for (int r = 0; r < rounds; r++) {
                          warmUp.lock();
                          try {
                            Thread.sleep(1);
                          } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                          } finally {
                            warmUp.unlock();
                          }
                        }
                      });
      t.start();
      warmUps.add(t);
    }
    for (Thread t : warmUps) {
      t.join();
    }
    for (Thread t : threads) {
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    List<String> lines = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      lines.add(ids.get(i) + " " + waits.get(i));
    }
    write(log, lines);
    System.out.println("sections: " + sections.get());
  }

  private static void write(Path log, List<String> lines) throws IOException {
    Files.write(log, lines);
  }
}
