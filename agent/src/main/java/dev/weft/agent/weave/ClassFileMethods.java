package dev.weft.agent.weave;

import org.objectweb.asm.ClassReader;

/**
 * A walk over a class file's methods and their {@code Code} attributes by offsets, without parsing
 * any code (ASM's reader only finds the constant pool): what the quick looks at a class file before
 * weaving share ({@code ClassScan}, {@link JdkClassFiles}).
 */
public final class ClassFileMethods {
  private ClassFileMethods() {}

  /** One method's {@code Code} attribute. */
  public interface CodeVisitor {
    /**
     * @param code the attribute's offset in the class file: its name index; max_stack is at {@code
     *     code + 6}, max_locals at {@code + 8}, code_length at {@code + 10}, the code at {@code +
     *     14}
     */
    void code(int access, String name, String descriptor, int code);
  }

  /**
   * Calls {@code visitor} for the {@code Code} attribute of every method that has one, in order;
   * returns the offset of the class's own attributes (their count).
   */
  public static int forEachCode(ClassReader reader, char[] buffer, CodeVisitor visitor) {
    int u = reader.header + 6; // access_flags, this_class, super_class
    u += 2 + 2 * reader.readUnsignedShort(u); // interfaces
    int fields = reader.readUnsignedShort(u);
    u += 2;
    for (int i = 0; i < fields; i++) {
      u = skipAttributes(reader, u + 6);
    }
    int methods = reader.readUnsignedShort(u);
    u += 2;
    for (int i = 0; i < methods; i++) {
      int access = reader.readUnsignedShort(u);
      String name = reader.readUTF8(u + 2, buffer);
      String descriptor = reader.readUTF8(u + 4, buffer);
      int attributes = reader.readUnsignedShort(u + 6);
      u += 8;
      for (int a = 0; a < attributes; a++) {
        if ("Code".equals(reader.readUTF8(u, buffer))) {
          visitor.code(access, name, descriptor, u);
        }
        u += 6 + reader.readInt(u + 2);
      }
    }
    return u;
  }

  /** Skips the attributes (count, then each) at {@code u}; returns the offset after them. */
  private static int skipAttributes(ClassReader reader, int u) {
    int attributes = reader.readUnsignedShort(u);
    u += 2;
    for (int a = 0; a < attributes; a++) {
      u += 6 + reader.readInt(u + 2);
    }
    return u;
  }
}
