package dev.weft.agent.weave;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;

/**
 * The runtime image's class file of a JDK class, to weave from when the JVM's rebuilt one lacks its
 * stack map frames. A retransformation is given the class file as the JVM rebuilds it from the
 * loaded class; on JDK 17 that has no {@code StackMapTable} for the JDK's own classes (it is not
 * kept for classes the JVM does not verify). The call-site weaver follows the frames to know the
 * locals at each call, so without them it took code after a jump for unreachable and left the calls
 * there as they were: of {@code TimerThread.mainLoop}'s two waits, only the first was woven in a
 * timer class loaded before an attach. The image's file has its frames, and is the same class
 * unless some other agent changed it; so it is used instead when every method's code has the same
 * length in both and some method has frames in it but none in the rebuilt file.
 */
final class JdkClassFiles {
  private JdkClassFiles() {}

  /**
   * {@code rebuilt}, or the runtime image's class file of {@code internalName} when that is the
   * same code with the frames {@code rebuilt} lacks.
   */
  static byte[] withFrames(String internalName, ClassLoader loader, byte[] rebuilt) {
    try {
      Map<String, long[]> rebuiltCode = code(rebuilt);
      if (rebuiltCode == null) {
        return rebuilt;
      }
      byte[] image = read(internalName, loader);
      Map<String, long[]> imageCode = image == null ? null : code(image);
      if (imageCode == null || !imageCode.keySet().equals(rebuiltCode.keySet())) {
        return rebuilt;
      }
      boolean framesLost = false;
      for (Map.Entry<String, long[]> m : imageCode.entrySet()) {
        long[] other = rebuiltCode.get(m.getKey());
        if (other[0] != m.getValue()[0]) {
          return rebuilt; // changed by someone else, or another version
        }
        framesLost |= m.getValue()[1] == 1 && other[1] == 0;
      }
      return framesLost ? image : rebuilt;
    } catch (RuntimeException e) {
      return rebuilt; // unreadable here: woven as given
    }
  }

  private static byte[] read(String internalName, ClassLoader loader) {
    String resource = internalName + ".class";
    try (InputStream in =
        loader == null
            ? ClassLoader.getSystemResourceAsStream(resource)
            : loader.getResourceAsStream(resource)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Per method with code ({@code name + descriptor}): its code's length and whether it has a {@code
   * StackMapTable} (1) or not (0); null when the file has no methods with code.
   */
  private static Map<String, long[]> code(byte[] classfile) {
    ClassReader r = new ClassReader(classfile);
    char[] buf = new char[r.getMaxStringLength()];
    Map<String, long[]> out = new HashMap<>();
    ClassFileMethods.forEachCode(
        r,
        buf,
        (access, name, descriptor, code) -> {
          int codeLength = r.readInt(code + 10);
          int v = code + 14 + codeLength;
          v += 2 + 8 * r.readUnsignedShort(v); // exception table
          int codeAttributes = r.readUnsignedShort(v);
          v += 2;
          long frames = 0;
          for (int c = 0; c < codeAttributes; c++) {
            if ("StackMapTable".equals(r.readUTF8(v, buf))) {
              frames = 1;
            }
            v += 6 + r.readInt(v + 2);
          }
          out.put(name + descriptor, new long[] {codeLength, frames});
        });
    return out.isEmpty() ? null : out;
  }
}
