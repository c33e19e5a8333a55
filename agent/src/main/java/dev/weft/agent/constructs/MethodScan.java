package dev.weft.agent.constructs;

import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;

/**
 * A quick look at a class file's methods before it is parsed: which are {@code synchronized}, which
 * may contain a {@code monitorenter}, and how many local variable slots each uses. Walks the class
 * file's structure only (no instruction decoding, no constant pool parsing beyond names), so that
 * the many classes without monitors are not parsed for nothing.
 */
final class MethodScan {
  private static final byte MONITORENTER = (byte) Opcodes.MONITORENTER;

  /** What the scan found about one method. */
  static final class Method {
    final boolean synchronizedMethod;
    /** Some byte of the code is the monitorenter opcode (an operand may be too: a superset). */
    final boolean mayEnterMonitors;
    /** The Code attribute's max_locals: the first slot the method never uses. */
    final int maxLocals;

    Method(boolean synchronizedMethod, boolean mayEnterMonitors, int maxLocals) {
      this.synchronizedMethod = synchronizedMethod;
      this.mayEnterMonitors = mayEnterMonitors;
      this.maxLocals = maxLocals;
    }
  }

  private MethodScan() {}

  /**
   * The methods with monitors, by name + descriptor; empty when there are none.
   *
   * @throws RuntimeException on a malformed class file (the transformer counts it)
   */
  static Map<String, Method> methodsWithMonitors(ClassReader reader, byte[] classfile) {
    char[] buffer = new char[reader.getMaxStringLength()];
    int u = reader.header + 6; // access_flags, this_class, super_class
    u += 2 + 2 * reader.readUnsignedShort(u); // interfaces
    int fields = reader.readUnsignedShort(u);
    u += 2;
    for (int i = 0; i < fields; i++) {
      u = skipAttributes(reader, u + 6);
    }
    Map<String, Method> out = new HashMap<>();
    int methods = reader.readUnsignedShort(u);
    u += 2;
    for (int i = 0; i < methods; i++) {
      int access = reader.readUnsignedShort(u);
      String name = reader.readUTF8(u + 2, buffer);
      String descriptor = reader.readUTF8(u + 4, buffer);
      int attributes = reader.readUnsignedShort(u + 6);
      u += 8;
      boolean mayEnter = false;
      int maxLocals = -1;
      for (int a = 0; a < attributes; a++) {
        int length = reader.readInt(u + 2);
        if ("Code".equals(reader.readUTF8(u, buffer))) {
          maxLocals = reader.readUnsignedShort(u + 8);
          int codeStart = u + 14;
          int codeEnd = codeStart + reader.readInt(u + 10);
          for (int p = codeStart; p < codeEnd; p++) {
            if (classfile[p] == MONITORENTER) {
              mayEnter = true;
              break;
            }
          }
        }
        u += 6 + length;
      }
      boolean sync = (access & Opcodes.ACC_SYNCHRONIZED) != 0;
      if (maxLocals >= 0 && (sync || mayEnter)) {
        out.put(name + descriptor, new Method(sync, mayEnter, maxLocals));
      }
    }
    return out;
  }

  private static int skipAttributes(ClassReader reader, int u) {
    int attributes = reader.readUnsignedShort(u);
    u += 2;
    for (int a = 0; a < attributes; a++) {
      u += 6 + reader.readInt(u + 2);
    }
    return u;
  }
}
