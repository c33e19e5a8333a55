package dev.weft.agent.record;

import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The pool a thread works for, for the threads alive at an attach, whose start the agent did not
 * see announce them: a {@code ThreadPoolExecutor}, read from the thread's task (a worker's task is
 * the pool's {@code Worker}, whose outer instance is the pool; a thread factory's wrapper around
 * the worker is looked into, one level down), Kotlin coroutines' scheduler, the outer instance of
 * its worker thread ({@link #COROUTINE_WORKER}), a Quartz pool ({@link #QUARTZ_WORKER}), Tomcat's
 * copy of {@code ThreadPoolExecutor}, whose worker is wrapped as the JDK's may be, or
 * jboss-threads' {@code EnhancedQueueExecutor} or Jetty's {@code QueuedThreadPool}, the outer
 * instance of its worker's runnable. Null where the fields cannot be read (another JDK's names, a
 * closed package): the worker is then a thread without a pool, as before.
 */
public final class PoolWorkers {
  /**
   * Kotlin coroutines' worker thread (binary name): a member of its outer {@code
   * CoroutineScheduler}, whose parks are its idle waits for a next task.
   */
  public static final String COROUTINE_WORKER =
      "kotlinx.coroutines.scheduling.CoroutineScheduler$Worker";

  /** A Quartz {@code SimpleThreadPool}'s worker thread (binary name): its pool is its field tp. */
  static final String QUARTZ_WORKER = "org.quartz.simpl.SimpleThreadPool$WorkerThread";

  private static final String WORKER = "java.util.concurrent.ThreadPoolExecutor$Worker";

  /**
   * Tomcat's copy of {@code ThreadPoolExecutor} (binary name), whose worker threads ({@code
   * TaskThread}) wrap its own {@code Worker}, an inner class of the pool.
   */
  private static final String TOMCAT_POOL = "org.apache.tomcat.util.threads.ThreadPoolExecutor";

  private static final String TOMCAT_WORKER = TOMCAT_POOL + "$Worker";

  /**
   * The runnable of a worker thread of jboss-threads' {@code EnhancedQueueExecutor} (binary name),
   * an inner class of the pool, which a thread factory may wrap.
   */
  private static final String JBOSS_WORKER = "org.jboss.threads.EnhancedQueueExecutor$ThreadBody";

  /**
   * The runnable of a worker thread of Jetty's {@code QueuedThreadPool} (binary name), an inner
   * class of the pool, which a thread factory may wrap.
   */
  private static final String JETTY_WORKER =
      "org.eclipse.jetty.util.thread.QueuedThreadPool$Runner";

  /**
   * The class whose parks are a jboss-threads pool worker's idle waits for its next task (binary
   * name).
   */
  public static final String JBOSS_IDLE_PARKS =
      "org.jboss.threads.EnhancedQueueExecutor$PoolThreadNode";

  private static final VarHandle WORKER_POOL =
      JdkFields.field(JdkFields.classNamed(WORKER), "this$0");

  /** JDK 17 to 20: the thread's task. */
  private static final VarHandle TARGET = JdkFields.field(Thread.class, "target");

  /** JDK 21 and later: the thread's fields holder, and its task. */
  private static final VarHandle HOLDER = JdkFields.field(Thread.class, "holder");

  private static final VarHandle HOLDER_TASK =
      JdkFields.field(JdkFields.classNamed("java.lang.Thread$FieldHolder"), "task");

  private PoolWorkers() {}

  /** The pool thread {@code t} is a worker of, or null. */
  static Object poolOf(Thread t) {
    if (t.getClass().getName().equals(COROUTINE_WORKER)) {
      return outerInstance(t);
    }
    if (t.getClass().getName().equals(QUARTZ_WORKER)) {
      return field(t, "tp");
    }
    if (WORKER_POOL == null) {
      return null;
    }
    try {
      Object task = null;
      if (TARGET != null) {
        task = TARGET.get(t);
      } else if (HOLDER != null && HOLDER_TASK != null) {
        Object holder = HOLDER.get(t);
        task = holder == null ? null : HOLDER_TASK.get(holder);
      }
      Object worker = isWorker(task) ? task : wrapped(task);
      if (worker == null) {
        return null;
      }
      return worker.getClass().getName().equals(WORKER)
          ? WORKER_POOL.get(worker)
          : outerInstance(worker);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The outer instance of an inner class's object ({@code this$0}), or null. */
  private static Object outerInstance(Object inner) {
    return field(inner, "this$0");
  }

  /** The value of {@code o}'s own field {@code name}, or null. */
  private static Object field(Object o, String name) {
    try {
      Field f = o.getClass().getDeclaredField(name);
      f.setAccessible(true);
      return f.get(o);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null; // another version's field, or a closed module
    }
  }

  private static boolean isWorker(Object task) {
    return task != null
        && (task.getClass().getName().equals(WORKER)
            || task.getClass().getName().equals(TOMCAT_WORKER)
            || task.getClass().getName().equals(JBOSS_WORKER)
            || task.getClass().getName().equals(JETTY_WORKER));
  }

  /**
   * Whether the workers of {@code pool} that were running at an attach keep a task loop whose tasks
   * only hooks see ({@code beforeExecute}/{@code afterExecute}): a {@code ThreadPoolExecutor}'s, or
   * Tomcat's copy of it.
   */
  static boolean runsTasksInALoop(Object pool) {
    return pool instanceof ThreadPoolExecutor || pool.getClass().getName().equals(TOMCAT_POOL);
  }

  /**
   * The worker a thread's task wraps one level down, or null: thread factories wrap the runnable
   * they are given (Netty's {@code FastThreadLocalRunnable}, as Vert.x's workers have it).
   */
  private static Object wrapped(Object task) {
    if (task == null || task.getClass().getName().startsWith("java.")) {
      return null;
    }
    for (Class<?> c = task.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
          continue;
        }
        try {
          f.setAccessible(true);
          Object v = f.get(task);
          if (isWorker(v)) {
            return v;
          }
        } catch (ReflectiveOperationException | RuntimeException e) {
          // A field of a module that does not open it: not the one.
        }
      }
    }
    return null;
  }
}
