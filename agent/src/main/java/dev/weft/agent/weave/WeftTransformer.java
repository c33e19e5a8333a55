package dev.weft.agent.weave;

import dev.weft.agent.config.AgentOptions;
import dev.weft.agent.config.ClassFilter;
import dev.weft.agent.record.Recorder;
import dev.weft.agent.record.RegionRegistry;
import dev.weft.agent.record.ThreadGuard;
import java.io.IOException;
import java.lang.instrument.ClassFileTransformer;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;

/**
 * The agent's one class-file transformer: routes JDK classes to the instrumentations that name them
 * and application classes through one ASM pass shared by all candidate instrumentations.
 *
 * <p>It never lets anything reach the host: a weaving error leaves the class unchanged and is
 * counted ({@link #errors()}, written to the trace attributes at the end). While it runs, the
 * recorder is suspended on the thread, so whatever weaving does is not traced.
 */
public final class WeftTransformer implements ClassFileTransformer {
  /**
   * Never woven: the agent itself (shaded libraries included), the JDK, generated lambda classes.
   */
  private static final String[] ALWAYS_EXCLUDED = {
    "dev/weft/agent/", "java/", "javax/", "jdk/", "sun/", "com/sun/"
  };

  private final Map<String, List<ConstructInstrumentation>> jdkTargets = new HashMap<>();
  private final List<ConstructInstrumentation> applicationScoped = new ArrayList<>();
  private final List<String[]> applicationHints = new ArrayList<>();
  private final ClassFilter filter;
  private final RegionRegistry regions;
  private final Recorder recorder;
  private final ClassLoader platformLoader = ClassLoader.getPlatformClassLoader();
  private final Set<String> woven = ConcurrentHashMap.newKeySet();
  private final AtomicLong errors = new AtomicLong();
  private volatile Throwable firstError;
  private volatile boolean active = true;

  /** Takes the instrumentations of the enabled families. */
  public WeftTransformer(
      List<ConstructInstrumentation> all,
      AgentOptions options,
      RegionRegistry regions,
      Recorder recorder) {
    this.filter = options.filter();
    this.regions = regions;
    this.recorder = recorder;
    for (ConstructInstrumentation c : all) {
      if (!options.enabled(c.family())) {
        continue;
      }
      for (String name : c.jdkClasses()) {
        List<ConstructInstrumentation> forName = jdkTargets.get(name);
        if (forName == null) {
          forName = new ArrayList<>(1);
          jdkTargets.put(name, forName);
        }
        forName.add(c);
      }
      List<String> hints = c.applicationHints();
      if (!hints.isEmpty()) {
        for (String h : hints) {
          ClassText.requireAscii(h);
        }
        applicationScoped.add(c);
        applicationHints.add(hints.toArray(new String[0]));
      }
    }
  }

  /** Internal names of the JDK classes some enabled instrumentation changes. */
  public Set<String> jdkClassNames() {
    return jdkTargets.keySet();
  }

  /** Whether an application-loaded class could be woven (for choosing what to retransform). */
  public boolean isApplicationCandidate(Class<?> c) {
    ClassLoader l = c.getClassLoader();
    if (l == null || l == platformLoader || c.isArray() || c.isPrimitive()) {
      return false;
    }
    return !excluded(c.getName().replace('.', '/'));
  }

  /** Whether application classes are instrumented at all. */
  public boolean hasApplicationScope() {
    return !applicationScoped.isEmpty();
  }

  /** Whether this class file would be offered to some application instrumentation. */
  public boolean mayWeave(String internalName, byte[] classfile) {
    boolean filtered = filter.accepts(internalName);
    WeaveTarget target = null;
    ClassText text = new ClassText(classfile);
    for (int i = 0; i < applicationScoped.size(); i++) {
      ConstructInstrumentation c = applicationScoped.get(i);
      if ((filtered || !c.honoursClassFilter()) && text.containsAny(applicationHints.get(i))) {
        if (target == null) {
          target = new WeaveTarget(internalName, null, classfile, true, regions);
        }
        if (wants(c, target)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The family's finer test; a failing test is a weaving error and means no. */
  private boolean wants(ConstructInstrumentation c, WeaveTarget target) {
    try {
      return c.wantsApplicationClass(target);
    } catch (Throwable t) {
      error(t);
      return false;
    }
  }

  /**
   * Stops weaving: from now on every class keeps (or, retransformed, gets back) its original bytes.
   */
  public void deactivate() {
    active = false;
  }

  /** Internal names of the classes woven so far (to retransform back on detach). */
  public Set<String> wovenClassNames() {
    return woven;
  }

  /** Classes that could not be woven (left unchanged). */
  public long errors() {
    return errors.get();
  }

  /** The first weaving error, or null. */
  public Throwable firstError() {
    return firstError;
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String className,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfile) {
    if (!active || className == null || classfile == null) {
      return null;
    }
    List<ConstructInstrumentation> jdk = jdkTargets.get(className);
    if (jdk != null && (loader == null || loader == platformLoader)) {
      return transformJdk(jdk, className, loader, classBeingRedefined, classfile);
    }
    if (loader == null || loader == platformLoader || applicationScoped.isEmpty()) {
      return null;
    }
    if (excluded(className)) {
      return null;
    }
    return transformApplication(className, loader, classBeingRedefined, classfile);
  }

  private static boolean excluded(String name) {
    for (String prefix : ALWAYS_EXCLUDED) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return name.contains("$$Lambda") || name.contains("LambdaForm$");
  }

  private byte[] transformJdk(
      List<ConstructInstrumentation> jdk,
      String className,
      ClassLoader loader,
      Class<?> redefined,
      byte[] classfile) {
    ThreadGuard guard = recorder.guard();
    boolean wasBusy = guard.busy;
    guard.busy = true;
    int definitionErrors = regions.definitionErrors();
    try {
      byte[] current =
          redefined != null ? JdkClassFiles.withFrames(className, loader, classfile) : classfile;
      boolean changed = false;
      for (ConstructInstrumentation c : jdk) {
        WeaveTarget t = new WeaveTarget(className, loader, current, redefined != null, regions);
        byte[] out = c.transformJdkClass(t);
        if (out != null) {
          current = out;
          changed = true;
        }
      }
      if (changed && !definitionsLost(definitionErrors)) {
        woven.add(className);
        return current;
      }
      return null;
    } catch (Throwable t) {
      error(t);
      return null;
    } finally {
      guard.busy = wasBusy; // a field write: cannot run out of stack
    }
  }

  private byte[] transformApplication(
      String className, ClassLoader loader, Class<?> redefined, byte[] classfile) {
    boolean filtered = filter.accepts(className);
    List<ConstructInstrumentation> candidates = null;
    WeaveTarget target = null;
    ThreadGuard guard = recorder.guard();
    boolean wasBusy = guard.busy;
    guard.busy = true;
    int definitionErrors = regions.definitionErrors();
    try {
      ClassText text = new ClassText(classfile);
      for (int i = 0; i < applicationScoped.size(); i++) {
        ConstructInstrumentation c = applicationScoped.get(i);
        if ((filtered || !c.honoursClassFilter()) && text.containsAny(applicationHints.get(i))) {
          if (target == null) {
            target = new WeaveTarget(className, loader, classfile, redefined != null, regions);
          }
          if (wants(c, target)) {
            if (candidates == null) {
              candidates = new ArrayList<>(2);
            }
            candidates.add(c);
          }
        }
      }
      if (candidates == null) {
        return null;
      }
      ClassReader reader = target.reader();
      // COMPUTE_MAXS only: computing frames would load classes from inside the transformer.
      ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
      ClassVisitor chain = writer;
      for (int i = candidates.size() - 1; i >= 0; i--) {
        chain = candidates.get(i).visitApplicationClass(chain, target);
      }
      reader.accept(new SourceFileRecorder(chain, target), ClassReader.EXPAND_FRAMES);
      if (!target.isChanged() || definitionsLost(definitionErrors)) {
        return null;
      }
      woven.add(className);
      return writer.toByteArray();
    } catch (Throwable t) {
      error(t);
      return null;
    } finally {
      guard.busy = wasBusy; // a field write: cannot run out of stack
    }
  }

  /**
   * Whether a region definition failed since {@code before} (disk full, trace closed): the woven
   * code would carry an id that refers to nothing, so the class is left unchanged. A failure on
   * another thread meanwhile leaves this class unchanged too, which is harmless.
   */
  private boolean definitionsLost(int before) {
    if (regions.definitionErrors() == before) {
      return false;
    }
    error(new IOException("a region definition could not be written; class left unchanged"));
    return true;
  }

  private void error(Throwable t) {
    if (errors.getAndIncrement() == 0) {
      firstError = t;
    }
  }

  /**
   * A class file searched for the families' hints: its bytes as a Latin-1 string, made at the first
   * search (one copy per class), so that each hint is found by {@link String#indexOf}, which the
   * JVM runs as a vectorised intrinsic: a byte loop of our own ran once per hint over every class
   * loaded, and was the largest single cost of looking at classes with nothing to weave. The hints
   * are ASCII, so a match of their characters is a match of their bytes.
   */
  static final class ClassText {
    private final byte[] classfile;
    private String text;

    ClassText(byte[] classfile) {
      this.classfile = classfile;
    }

    /** A family's hint, which must be ASCII to be found as bytes of a class file. */
    static void requireAscii(String hint) {
      for (int i = 0; i < hint.length(); i++) {
        if (hint.charAt(i) >= 0x80) {
          throw new IllegalArgumentException("a class file hint must be ASCII: " + hint);
        }
      }
    }

    /** Whether the class file contains any of the hints (the empty hint is in every class). */
    boolean containsAny(String[] hints) {
      for (String h : hints) {
        if (h.isEmpty()) {
          return true;
        }
        if (text == null) {
          text = new String(classfile, StandardCharsets.ISO_8859_1);
        }
        if (text.contains(h)) {
          return true;
        }
      }
      return false;
    }
  }
}
