package dev.weft.analysis.apps;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * JDK 21+ ground truth for pinned virtual threads: eight virtual threads each initialise a class of
 * their own whose static initialiser sleeps {@code args[0]} ms (a class initialiser on the stack
 * pins the virtual thread to its carrier on every JDK, 25 included), and eight more sleep as long
 * outside any initialiser (they unmount). Prints {@code pinned_ns: N}, the initialisers' sleeps as
 * measured inside them, and {@code unpinned_ns: N}.
 */
public final class VirtualPinningApp {
  static final AtomicLong PINNED = new AtomicLong();
  static long sleepMs;

  public static void main(String[] args) throws Exception {
    sleepMs = Long.parseLong(args[0]);
    AtomicLong unpinned = new AtomicLong();
    Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
    Method unstarted =
        Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class);
    List<Runnable> bodies = new ArrayList<>();
    bodies.add(() -> Init0.touch());
    bodies.add(() -> Init1.touch());
    bodies.add(() -> Init2.touch());
    bodies.add(() -> Init3.touch());
    bodies.add(() -> Init4.touch());
    bodies.add(() -> Init5.touch());
    bodies.add(() -> Init6.touch());
    bodies.add(() -> Init7.touch());
    for (int i = 0; i < 8; i++) {
      bodies.add(() -> unpinned.addAndGet(sleep()));
    }
    List<Thread> threads = new ArrayList<>();
    for (Runnable body : bodies) {
      Thread t = (Thread) unstarted.invoke(builder, body);
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join();
    }
    System.out.println("pinned_ns: " + PINNED.get());
    System.out.println("unpinned_ns: " + unpinned.get());
  }

  static long sleep() {
    long start = System.nanoTime();
    try {
      Thread.sleep(sleepMs);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return System.nanoTime() - start;
  }

  static final class Init0 {
    static {
      PINNED.addAndGet(sleep());
    }

    static void touch() {}
  }

  static final class Init1 {
    static {
      PINNED.addAndGet(sleep());
    }

    static void touch() {}
  }

  static final class Init2 {
    static {
      PINNED.addAndGet(sleep());
    }

    static void touch() {}
  }

  static final class Init3 {
    static {
      PINNED.addAndGet(sleep());
    }

    static void touch() {}
  }

  static final class Init4 {
    static {
      PINNED.addAndGet(sleep());
    }

    static void touch() {}
  }

  static final class Init5 {
    static {
      PINNED.addAndGet(sleep());
    }

    static void touch() {}
  }

  static final class Init6 {
    static {
      PINNED.addAndGet(sleep());
    }

    static void touch() {}
  }

  static final class Init7 {
    static {
      PINNED.addAndGet(sleep());
    }

    static void touch() {}
  }
}
