package dev.weft.agent.constructs;

import dev.weft.agent.weave.ClassFileMethods;
import dev.weft.agent.weave.WeaveTarget;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;

/**
 * A quick look at a class file before it is parsed, shared by the call-site families ({@link
 * ApplicationCallSites}) and {@link Monitors}: the methods it references, which methods may call
 * them or take a method reference to them, which are {@code synchronized} or may contain a {@code
 * monitorenter}, and how many local slots each uses. One pass over the constant pool and one over
 * the bytes of method code (no instruction decoding, no parsing), done once per class for all
 * families: the many classes with nothing to weave cost next to nothing, and only methods with
 * something to weave are parsed.
 *
 * <p>A method reference ({@code lock::lock}) is a method handle constant among the bootstrap
 * arguments of an {@code invokedynamic}: a method whose code may execute an {@code invokedynamic}
 * whose bootstrap arguments hold a handle to a matched method counts as calling it.
 *
 * <p>The code checks are byte searches: an opcode's byte may also be an operand, so they may say
 * yes wrongly (the method is then parsed for nothing), never no wrongly.
 */
final class ClassScan {
  private static final int METHODREF = 10;
  private static final int INTERFACE_METHODREF = 11;
  private static final int METHOD_HANDLE = 15;
  private static final int INVOKE_DYNAMIC = 18;

  /** The last scan on this thread: the families asking about one class share it. */
  private static final ThreadLocal<ClassScan> LAST = new ThreadLocal<>();

  /**
   * The names of every method some {@link Calls} may match ({@link #addTargetName}): a reference to
   * any other method is not looked at further (its owner and descriptor are not even read).
   */
  private static final Set<String> TARGET_NAMES = ConcurrentHashMap.newKeySet();

  /**
   * Which method references matter (owner and descriptor in internal form). Only references to
   * methods named in {@link #addTargetName} are offered.
   */
  interface Calls {
    /** {@code method} is name and descriptor together ({@code "await()V"}). */
    boolean match(String owner, String name, String method);
  }

  /** A method with monitors. */
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

  private final WeakReference<WeaveTarget> target;

  /** Constant pool indices of method references, and their owner, name and descriptor. */
  private final int[] refIndex;

  private final String[] refOwner;
  private final String[] refName;

  /** How many {@link #TARGET_NAMES} there were when their references were last read. */
  private int targetNamesRead = -1;

  /**
   * Name and descriptor together, the form the tables are keyed by; like the owner, read only for
   * methods named in {@link #TARGET_NAMES} (null otherwise: matches nothing).
   */
  private final String[] refMethod;

  private final int poolSize;

  /** Constant pool indices of method handles, and the index of the member each refers to. */
  private final int[] handleIndex;

  private final int[] handleMember;

  /** Constant pool indices of invokedynamic constants, and their bootstrap method numbers. */
  private final int[] indyIndex;

  private final int[] indyBootstrap;

  /** Offset of the BootstrapMethods attribute's num_bootstrap_methods, or -1. */
  private int bootstrapMethods = -1;

  /** Per method with code: name + descriptor, and the constant pool indices its invokes may use. */
  private final List<String> methodKeys = new ArrayList<>();

  private final List<int[]> methodInvokes = new ArrayList<>();
  private final Map<String, Method> monitors = new HashMap<>();

  /**
   * The answers of {@link #methodsCalling} so far: each family asks twice (whether it wants the
   * class, then which methods to weave).
   */
  private final Map<Calls, Set<String>> calling = new IdentityHashMap<>();

  private ClassScan(WeaveTarget target) {
    this.target = new WeakReference<>(target);
    ClassReader reader = target.reader();
    byte[] classfile = target.classfile();
    char[] buffer = new char[reader.getMaxStringLength()];
    poolSize = reader.getItemCount();
    int refs = 0;
    int handles = 0;
    int indys = 0;
    int[] index = new int[16];
    int[] handle = new int[4];
    int[] indy = new int[4];
    for (int i = 1; i < poolSize; i++) {
      int offset = reader.getItem(i);
      if (offset == 0) { // the second slot of a long or double
        continue;
      }
      int tag = classfile[offset - 1];
      if (tag == METHODREF || tag == INTERFACE_METHODREF) {
        if (refs == index.length) {
          index = Arrays.copyOf(index, refs * 2);
        }
        index[refs++] = i;
      } else if (tag == METHOD_HANDLE) {
        if (handles == handle.length) {
          handle = Arrays.copyOf(handle, handles * 2);
        }
        handle[handles++] = i;
      } else if (tag == INVOKE_DYNAMIC) {
        if (indys == indy.length) {
          indy = Arrays.copyOf(indy, indys * 2);
        }
        indy[indys++] = i;
      }
    }
    handleIndex = Arrays.copyOf(handle, handles);
    handleMember = new int[handles];
    for (int h = 0; h < handles; h++) {
      // reference_kind u1, reference_index u2
      handleMember[h] = reader.readUnsignedShort(reader.getItem(handleIndex[h]) + 1);
    }
    indyIndex = Arrays.copyOf(indy, indys);
    indyBootstrap = new int[indys];
    for (int d = 0; d < indys; d++) {
      // bootstrap_method_attr_index u2, name_and_type_index u2
      indyBootstrap[d] = reader.readUnsignedShort(reader.getItem(indyIndex[d]));
    }
    refIndex = Arrays.copyOf(index, refs);
    refOwner = new String[refs];
    refName = new String[refs];
    refMethod = new String[refs];
    for (int r = 0; r < refs; r++) {
      int offset = reader.getItem(refIndex[r]);
      refName[r] = reader.readUTF8(reader.getItem(reader.readUnsignedShort(offset + 2)), buffer);
    }
    scanMethods(reader, classfile, buffer);
  }

  /** Declares that some {@link Calls} may match methods called {@code name}. */
  static void addTargetName(String name) {
    TARGET_NAMES.add(name);
  }

  /** The scan of {@code target}, shared by the families that ask about it on this thread. */
  static ClassScan of(WeaveTarget target) {
    ClassScan last = LAST.get();
    if (last != null && last.target.get() == target) {
      return last;
    }
    ClassScan scan = new ClassScan(target);
    LAST.set(scan);
    return scan;
  }

  /** The methods (name + descriptor) whose code may invoke what {@code calls} matches. */
  Set<String> methodsCalling(Calls calls) {
    Set<String> out = calling.get(calls);
    if (out == null) {
      out = findMethodsCalling(calls);
      calling.put(calls, out);
    }
    return out;
  }

  /**
   * Reads owner and name+descriptor of the references to methods named in {@link #TARGET_NAMES}
   * (again when names were added since: a family's table may be built after this scan).
   */
  private void readTargetReferences() {
    int names = TARGET_NAMES.size(); // the set only grows
    if (names == targetNamesRead) {
      return;
    }
    WeaveTarget t = target.get();
    ClassReader reader = t.reader();
    char[] buffer = new char[reader.getMaxStringLength()];
    for (int r = 0; r < refIndex.length; r++) {
      if (refMethod[r] == null && TARGET_NAMES.contains(refName[r])) {
        int offset = reader.getItem(refIndex[r]);
        int nameAndType = reader.getItem(reader.readUnsignedShort(offset + 2));
        refOwner[r] = reader.readClass(offset, buffer);
        refMethod[r] = refName[r].concat(reader.readUTF8(nameAndType + 2, buffer));
      }
    }
    targetNamesRead = names;
  }

  private Set<String> findMethodsCalling(Calls calls) {
    readTargetReferences();
    boolean[] wanted = null;
    for (int r = 0; r < refIndex.length; r++) {
      if (refMethod[r] != null && calls.match(refOwner[r], refName[r], refMethod[r])) {
        if (wanted == null) {
          wanted = new boolean[poolSize];
        }
        wanted[refIndex[r]] = true;
      }
    }
    if (wanted == null) {
      return Set.of();
    }
    markReferences(wanted);
    Set<String> out = new HashSet<>();
    for (int m = 0; m < methodKeys.size(); m++) {
      if (invokesAny(methodInvokes.get(m), wanted)) {
        out.add(methodKeys.get(m));
      }
    }
    return out;
  }

  /** Whether one of the pool indices is marked: a loop of its own, like {@link CodeBytes#scan}. */
  private static boolean invokesAny(int[] poolIndices, boolean[] wanted) {
    for (int index : poolIndices) {
      if (index < wanted.length && wanted[index]) {
        return true;
      }
    }
    return false;
  }

  /**
   * Marks the invokedynamic constants whose bootstrap arguments hold a method handle to a marked
   * method (a method reference to it), so that the methods executing them count as callers.
   */
  private void markReferences(boolean[] wanted) {
    boolean[] handles = null;
    for (int h = 0; h < handleIndex.length; h++) {
      if (handleMember[h] < wanted.length && wanted[handleMember[h]]) {
        if (handles == null) {
          handles = new boolean[wanted.length];
        }
        handles[handleIndex[h]] = true;
      }
    }
    if (handles == null || bootstrapMethods < 0) {
      return;
    }
    ClassReader reader = target.get() == null ? null : target.get().reader();
    if (reader == null) {
      return;
    }
    // BootstrapMethods: num u2, then per method: ref u2, num_arguments u2, arguments u2[]
    int count = reader.readUnsignedShort(bootstrapMethods);
    int[] start = new int[count];
    int u = bootstrapMethods + 2;
    for (int b = 0; b < count; b++) {
      start[b] = u;
      u += 4 + 2 * reader.readUnsignedShort(u + 2);
    }
    for (int d = 0; d < indyIndex.length; d++) {
      int b = indyBootstrap[d];
      if (b >= count) {
        continue;
      }
      int arguments = reader.readUnsignedShort(start[b] + 2);
      for (int a = 0; a < arguments; a++) {
        int argument = reader.readUnsignedShort(start[b] + 4 + 2 * a);
        if (argument < handles.length && handles[argument]) {
          wanted[indyIndex[d]] = true;
          break;
        }
      }
    }
  }

  /**
   * The methods with monitors, by name + descriptor: synchronized ones and those whose code may
   * contain a {@code monitorenter}.
   */
  Map<String, Method> methodsWithMonitors() {
    return monitors;
  }

  private void scanMethods(ClassReader reader, byte[] classfile, char[] buffer) {
    CodeBytes code = new CodeBytes();
    int u =
        ClassFileMethods.forEachCode(
            reader,
            buffer,
            (access, name, descriptor, at) -> {
              // Code: max_stack u2, max_locals u2, code_length u4, code
              int maxLocals = reader.readUnsignedShort(at + 8);
              int start = at + 14;
              int end = start + reader.readInt(at + 10);
              code.scan(classfile, start, end);
              String key = name + descriptor;
              if (code.invokes > 0) {
                methodKeys.add(key);
                methodInvokes.add(Arrays.copyOf(code.poolIndices, code.invokes));
              }
              boolean sync = (access & Opcodes.ACC_SYNCHRONIZED) != 0;
              if (sync || code.mayEnter) {
                monitors.put(key, new Method(sync, code.mayEnter, maxLocals));
              }
            });
    int attributes = reader.readUnsignedShort(u);
    u += 2;
    for (int a = 0; a < attributes; a++) {
      if ("BootstrapMethods".equals(reader.readUTF8(u, buffer))) {
        bootstrapMethods = u + 6;
      }
      u += 6 + reader.readInt(u + 2);
    }
  }

  /**
   * What a byte search of one method's code finds. The search is a method of its own: it is the
   * scan's hot loop, and compiled inside {@link #scanMethods} (string building, map updates) it
   * made one of the JIT's largest compilations at start-up.
   */
  private static final class CodeBytes {
    /** The constant pool indices the invoke opcodes found may use, {@link #invokes} of them. */
    int[] poolIndices = new int[64];

    int invokes;

    /** Some byte is the monitorenter opcode. */
    boolean mayEnter;

    void scan(byte[] classfile, int start, int end) {
      int count = 0;
      boolean enter = false;
      int[] indices = poolIndices;
      for (int p = start; p < end; p++) {
        int op = classfile[p] & 0xFF;
        if (op >= Opcodes.INVOKEVIRTUAL && op <= Opcodes.INVOKEDYNAMIC && p + 2 < end) {
          if (count == indices.length) {
            indices = Arrays.copyOf(indices, count * 2);
          }
          indices[count++] = ((classfile[p + 1] & 0xFF) << 8) | (classfile[p + 2] & 0xFF);
        } else if (op == Opcodes.MONITORENTER) {
          enter = true;
        }
      }
      poolIndices = indices;
      invokes = count;
      mayEnter = enter;
    }
  }
}
