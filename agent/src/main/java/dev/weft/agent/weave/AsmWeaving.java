package dev.weft.agent.weave;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;

/**
 * Runs one ASM class visitor over a class file, the way the agent's transformer does for
 * application classes: frames expanded on reading, max stack recomputed on writing, frames never
 * computed (that would load classes from inside the transformer). For JDK classes, combine with
 * {@link HookedMethod}.
 */
public final class AsmWeaving {
  private AsmWeaving() {}

  /**
   * Builds a visitor over the class writer; it must call {@link WeaveTarget#changed()} if it
   * weaves.
   */
  public interface VisitorFactory {
    ClassVisitor create(ClassVisitor writer, WeaveTarget target);
  }

  /** The woven class file, or null when the visitor changed nothing. */
  public static byte[] weave(WeaveTarget target, VisitorFactory factory) {
    ClassReader reader = target.reader();
    ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
    reader.accept(
        new SourceFileRecorder(factory.create(writer, target), target), ClassReader.EXPAND_FRAMES);
    return target.isChanged() ? writer.toByteArray() : null;
  }
}
