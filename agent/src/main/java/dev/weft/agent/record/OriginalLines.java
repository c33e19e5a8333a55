package dev.weft.agent.record;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Source lines of frames that run a method's code from before its class was retransformed. The JVM
 * gives such (obsolete) frames no file and line ({@code StackWalker} reports -1: their line table
 * is not the current one), but their bytecode index still points into the original code, whose
 * class file the class's loader can read again. Parsed once per class, on the first wait of a
 * running frame in it.
 *
 * <p>Also where the original code enters monitors and calls {@code Object.wait}: a frame whose
 * bytecode index is there runs the original code (woven code has its own calls before those
 * instructions, so they are elsewhere in it), which tells the JVM's monitor events of frames
 * running since before the attach from those of woven methods ({@link RunningMonitors}).
 */
final class OriginalLines {
  private static final ClassValue<OriginalLines> OF_CLASS =
      new ClassValue<OriginalLines>() {
        @Override
        protected OriginalLines computeValue(Class<?> c) {
          return read(c);
        }
      };

  private final String sourceFile;

  /** Per {@code name + descriptor}: pairs (start bytecode index, line), in the table's order. */
  private final Map<String, int[]> lines;

  /**
   * Per {@code name + descriptor}: bytecode indexes of monitorenter, then -1, then of wait calls.
   */
  private final Map<String, int[]> waits;

  /** {@code name + descriptor} of the synchronized methods. */
  private final Set<String> synchronizedMethods;

  private OriginalLines(
      String sourceFile,
      Map<String, int[]> lines,
      Map<String, int[]> waits,
      Set<String> synchronizedMethods) {
    this.sourceFile = sourceFile;
    this.lines = lines;
    this.waits = waits;
    this.synchronizedMethods = synchronizedMethods;
  }

  /**
   * Whether the original code of a method has a {@code monitorenter} at {@code bci}, or just before
   * it (a compiled frame blocked in the instruction reports the next one, one byte on): the
   * instruction's index, or -1.
   */
  int monitorEnterAt(String name, String descriptor, int bci) {
    int[] at = waits.get(name + descriptor);
    if (at != null) {
      for (int i = 0; i < at.length && at[i] >= 0; i++) {
        if (at[i] == bci || at[i] + 1 == bci) {
          return at[i];
        }
      }
    }
    return -1;
  }

  /** Whether the original code of a method calls {@code Object.wait} at {@code bci}. */
  boolean waitCallAt(String name, String descriptor, int bci) {
    int[] at = waits.get(name + descriptor);
    if (at != null) {
      boolean calls = false;
      for (int i = 0; i < at.length; i++) {
        if (at[i] < 0) {
          calls = true;
        } else if (calls && at[i] == bci) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether the method was declared {@code synchronized} in the original class file. */
  boolean isSynchronized(String name, String descriptor) {
    return synchronizedMethods.contains(name + descriptor);
  }

  /** Of class {@code c}; empty when its class file cannot be read. */
  static OriginalLines of(Class<?> c) {
    return OF_CLASS.get(c);
  }

  /** The SourceFile attribute, or null. */
  String sourceFile() {
    return sourceFile;
  }

  /** Whether the original method {@code name + descriptor} has a line table. */
  boolean hasLines(String name, String descriptor) {
    int[] table = lines.get(name + descriptor);
    return table != null && table.length > 0;
  }

  /** The line of bytecode index {@code bci} in method {@code name + descriptor}, or 0. */
  int line(String name, String descriptor, int bci) {
    int[] table = lines.get(name + descriptor);
    if (table == null) {
      return 0;
    }
    int best = -1;
    int line = 0;
    for (int i = 0; i < table.length; i += 2) {
      if (table[i] <= bci && table[i] > best) {
        best = table[i];
        line = table[i + 1];
      }
    }
    return line;
  }

  private static OriginalLines read(Class<?> c) {
    ClassLoader loader = c.getClassLoader();
    String resource = c.getName().replace('.', '/') + ".class";
    try (InputStream in =
        loader == null
            ? ClassLoader.getSystemResourceAsStream(resource)
            : loader.getResourceAsStream(resource)) {
      if (in == null) {
        return new OriginalLines(null, Map.of(), Map.of(), Set.of());
      }
      return parse(in.readAllBytes());
    } catch (IOException | RuntimeException e) {
      return new OriginalLines(null, Map.of(), Map.of(), Set.of());
    }
  }

  private static OriginalLines parse(byte[] classfile) {
    Map<String, int[]> lines = new HashMap<>();
    Map<String, int[]> waits = new HashMap<>();
    Set<String> synchronizedMethods = new HashSet<>();
    String[] source = new String[1];
    // Through a writer: a reader's labels get their offsets only when a writer writes the code;
    // unchanged code is written with the same instructions at the same offsets.
    new ClassReader(classfile)
        .accept(
            new ClassVisitor(Opcodes.ASM9, new ClassWriter(0)) {
              @Override
              public void visitSource(String file, String debug) {
                super.visitSource(file, debug);
                source[0] = file;
              }

              @Override
              public MethodVisitor visitMethod(
                  int access, String name, String descriptor, String signature, String[] ex) {
                MethodVisitor writer = super.visitMethod(access, name, descriptor, signature, ex);
                if ((access & Opcodes.ACC_SYNCHRONIZED) != 0) {
                  synchronizedMethods.add(name + descriptor);
                }
                return new MethodVisitor(Opcodes.ASM9, writer) {
                  private final List<Label> starts = new ArrayList<>();
                  private final List<Integer> numbers = new ArrayList<>();
                  private final List<Label> enters = new ArrayList<>();
                  private final List<Label> waitCalls = new ArrayList<>();

                  @Override
                  public void visitInsn(int opcode) {
                    if (opcode == Opcodes.MONITORENTER) {
                      enters.add(here());
                    }
                    super.visitInsn(opcode);
                  }

                  @Override
                  public void visitMethodInsn(
                      int opcode, String owner, String method, String desc, boolean itf) {
                    if (opcode == Opcodes.INVOKEVIRTUAL
                        && method.equals("wait")
                        && (desc.equals("()V") || desc.equals("(J)V") || desc.equals("(JI)V"))) {
                      waitCalls.add(here());
                    }
                    super.visitMethodInsn(opcode, owner, method, desc, itf);
                  }

                  /** A label at the next instruction (a label writes no code). */
                  private Label here() {
                    Label l = new Label();
                    super.visitLabel(l);
                    return l;
                  }

                  @Override
                  public void visitLineNumber(int line, Label start) {
                    super.visitLineNumber(line, start);
                    starts.add(start);
                    numbers.add(line);
                  }

                  @Override
                  public void visitEnd() {
                    super.visitEnd(); // the code is written: the labels have their offsets
                    int[] table = new int[starts.size() * 2];
                    for (int i = 0; i < starts.size(); i++) {
                      table[2 * i] = starts.get(i).getOffset();
                      table[2 * i + 1] = numbers.get(i);
                    }
                    lines.put(name + descriptor, table);
                    if (!enters.isEmpty() || !waitCalls.isEmpty()) {
                      int[] at = new int[enters.size() + 1 + waitCalls.size()];
                      int k = 0;
                      for (Label l : enters) {
                        at[k++] = l.getOffset();
                      }
                      at[k++] = -1;
                      for (Label l : waitCalls) {
                        at[k++] = l.getOffset();
                      }
                      waits.put(name + descriptor, at);
                    }
                  }
                };
              }
            },
            ClassReader.SKIP_FRAMES);
    return new OriginalLines(source[0], lines, waits, synchronizedMethods);
  }
}
