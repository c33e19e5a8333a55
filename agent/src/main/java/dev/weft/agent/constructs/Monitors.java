package dev.weft.agent.constructs;

import dev.weft.agent.bridge.WeftReflection;
import dev.weft.agent.config.Family;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * {@code synchronized} blocks and methods of application classes, and the blocks of the JDK's
 * synchronized collection wrappers ({@link #JDK_BLOCKS}), the {@code monitors} family: LOCK_REQUEST
 * before the monitor is entered, LOCK_ACQUIRED once it is held, LOCK_RELEASED while it is still
 * held, each naming the monitor's object. The region is the block's line (kind {@code monitor}) or
 * the method (kind {@code synchronized_method}).
 *
 * <ul>
 *   <li><b>Blocks</b> ({@code monitorenter}/{@code monitorexit}, in every class): the request and
 *       the release are plain calls before the instructions. The acquisition call after {@code
 *       monitorenter} is covered by the block's own catch-all handler (the one the compiler emitted
 *       to release the monitor), so that the JIT still sees balanced monitors; every {@code
 *       monitorexit}, including the one in that handler, records the release, so an exception
 *       leaving the block records it too (there just after the exit: the handler covers itself, and
 *       C1 gives up on a method with a call in such a handler). A {@code monitorenter} without such
 *       a handler (not javac, ecj, Kotlin or Scala output) is left alone.
 *   <li><b>Methods</b> of a class woven as it is defined: the {@code synchronized} modifier is
 *       removed and the body is wrapped in an explicit monitor on {@code this} (or the class), with
 *       a catch-all handler that releases it, as javac compiles a block. This gives the request
 *       time, which the JVM's own method entry hides. Reflection still reports the modifier ({@link
 *       SynchronizedFlags}). A retransformation cannot change modifiers, so the rewrite is
 *       remembered and repeated when such a class is retransformed.
 *   <li><b>Methods</b> of a class that was loaded before the agent (attach): the modifier stays;
 *       the request and acquisition are recorded together on entry (the wait for the monitor is not
 *       visible) and the release before every return and when an exception leaves.
 * </ul>
 *
 * <p>Classes are scanned first ({@link ClassScan}); only methods with a monitor are parsed.
 *
 * <p><b>Important:</b> a rewritten method keeps its monitor object in a local slot above all the
 * method's own, which every stack map frame of the method then declares. Families that add locals
 * must come after this one in {@code Constructs.all()}, so that they see that slot in use.
 */
public final class Monitors implements ConstructInstrumentation {
  private static final String OBJECT = "java/lang/Object";
  private static final String THROWABLE = "java/lang/Throwable";

  /**
   * Classes whose synchronized methods lost the modifier when defined, by defining loader: a
   * retransformation must rewrite them again. Kept across detach and attach.
   */
  // A plain map under its own monitor: the JDK's synchronized wrappers are woven (below).
  private static final Map<ClassLoader, Set<String>> REWRITTEN = new WeakHashMap<>();

  /**
   * JDK classes whose {@code synchronized} blocks programs contend on without having written them:
   * the wrappers of {@code Collections.synchronizedMap}, {@code synchronizedList} and the others,
   * every method a block on the wrapper's mutex; and {@code PrintStream}, whose {@code print},
   * {@code println} and {@code write} hold the stream's monitor while they write (threads printing
   * to {@code System.out} queue there; on JDK 21 to 23 a {@code PrintStream} of that exact class
   * takes a lock of the JDK's own instead, which stays unrecorded); and the selectors, whose
   * wake-up lock the threads calling {@code wakeup()} and the selecting thread (clearing the
   * wake-up after its select) contend on, an event loop behind the threads that hand it work (one
   * class per OS; those absent are never loaded). Their blocks are woven as an application class's
   * (a retransformation changes no modifier). The JDK's synchronized methods ({@code Hashtable},
   * {@code Vector}, {@code StringBuffer}) are not: their modifier cannot be taken away from a class
   * loaded before the agent, and inside them the wait is over.
   */
  private static final Set<String> JDK_BLOCKS =
      Set.of(
          "java/util/Collections$SynchronizedCollection",
          "java/util/Collections$SynchronizedSet",
          "java/util/Collections$SynchronizedSortedSet",
          "java/util/Collections$SynchronizedNavigableSet",
          "java/util/Collections$SynchronizedList",
          "java/util/Collections$SynchronizedRandomAccessList",
          "java/util/Collections$SynchronizedMap",
          "java/util/Collections$SynchronizedSortedMap",
          "java/util/Collections$SynchronizedNavigableMap",
          "java/io/PrintStream",
          "sun/nio/ch/EPollSelectorImpl",
          "sun/nio/ch/KQueueSelectorImpl",
          "sun/nio/ch/WindowsSelectorImpl");

  @Override
  public Family family() {
    return Family.MONITORS;
  }

  /** Any class may synchronize; {@link ClassScan} then skips those that do not, cheaply. */
  @Override
  public List<String> applicationHints() {
    return List.of("");
  }

  @Override
  public boolean wantsApplicationClass(WeaveTarget target) {
    return !ClassScan.of(target).methodsWithMonitors().isEmpty();
  }

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    Map<String, ClassScan.Method> methods = ClassScan.of(target).methodsWithMonitors();
    return methods.isEmpty() ? next : new MonitorClass(next, target, methods);
  }

  @Override
  public Set<String> jdkClasses() {
    return JDK_BLOCKS;
  }

  /** The synchronized blocks of one of {@link #JDK_BLOCKS}: blocks only, methods as they are. */
  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    Map<String, ClassScan.Method> methods = ClassScan.of(target).methodsWithMonitors();
    if (methods.isEmpty()) {
      return null;
    }
    return JdkMethods.weave(
        target,
        (mv, access, name, descriptor, version) -> {
          ClassScan.Method m = methods.get(name + descriptor);
          if (m == null || innerByteWrite(target, name, descriptor)) {
            return mv;
          }
          target.changed();
          return new MonitorMethod(mv, target, access, name, version, SyncMode.NONE, m.maxLocals);
        });
  }

  /**
   * {@code PrintStream.write(int)}, {@code write(byte[])} and {@code write(byte[], int, int)}: the
   * stream's own encoder calls them back while {@code print}, {@code println} or {@code format}
   * holds the monitor already, a re-entry that cannot wait. Left unwoven, a line printed is one
   * recorded monitor (three events), not two; a program writing bytes to the stream itself is not
   * recorded.
   */
  private static boolean innerByteWrite(WeaveTarget target, String name, String descriptor) {
    return target.internalName().equals("java/io/PrintStream")
        && name.equals("write")
        && (descriptor.startsWith("(I)") || descriptor.startsWith("([B"));
  }

  private static boolean wasRewritten(WeaveTarget target) {
    synchronized (REWRITTEN) {
      Set<String> names = REWRITTEN.get(target.loader());
      return names != null && names.contains(target.internalName());
    }
  }

  private static void rememberRewritten(WeaveTarget target) {
    synchronized (REWRITTEN) {
      REWRITTEN.computeIfAbsent(target.loader(), l -> new HashSet<>()).add(target.internalName());
    }
  }

  /** How a method's own monitor is woven. */
  private enum SyncMode {
    /** Not a synchronized method. */
    NONE,
    /** Modifier removed, explicit monitor around the body. */
    REWRITE,
    /** Modifier kept: events inside the JVM's monitor. */
    HOOKS
  }

  private static final class MonitorClass extends ClassVisitor {
    private final WeaveTarget target;
    private final Map<String, ClassScan.Method> methods;
    private int version;
    private boolean rewrite;
    private boolean rewroteAny;

    MonitorClass(ClassVisitor next, WeaveTarget target, Map<String, ClassScan.Method> methods) {
      super(Opcodes.ASM9, next);
      this.target = target;
      this.methods = methods;
    }

    @Override
    public void visit(
        int version,
        int access,
        String name,
        String signature,
        String superName,
        String[] interfaces) {
      this.version = version;
      this.rewrite = !target.retransforming() || wasRewritten(target);
      super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      ClassScan.Method m = methods.get(name + descriptor);
      if (m == null || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
        return super.visitMethod(access, name, descriptor, signature, exceptions);
      }
      SyncMode mode = SyncMode.NONE;
      int newAccess = access;
      if (m.synchronizedMethod) {
        target.changed();
        if (rewrite) {
          mode = SyncMode.REWRITE;
          newAccess &= ~Opcodes.ACC_SYNCHRONIZED;
          rewroteAny = true;
          if (!target.retransforming()) {
            // Reflection still reports the modifier (SynchronizedFlags).
            WeftReflection.rewritten(target.loader(), target.internalName(), name + descriptor);
          }
        } else {
          mode = SyncMode.HOOKS;
        }
      }
      MethodVisitor mv = super.visitMethod(newAccess, name, descriptor, signature, exceptions);
      return mv == null
          ? null
          : new MonitorMethod(mv, target, access, name, version, mode, m.maxLocals);
    }

    @Override
    public void visitEnd() {
      if (rewroteAny && !target.retransforming()) {
        rememberRewritten(target);
      }
      super.visitEnd();
    }
  }

  /** Weaves the monitors of one method. */
  private static final class MonitorMethod extends OwnHandlersFirst {
    private final WeaveTarget target;
    private final boolean isStatic;
    private final boolean frames;
    private final SyncMode mode;

    /** REWRITE: the slot holding the method's monitor object. */
    private final int lockSlot;

    private final Label bodyStart = new Label();
    private int methodRegion;

    /** A free slot for a monitor object between two woven instructions (not across frames). */
    private final int spareSlot;

    /** A monitorenter seen and not yet emitted: what follows decides how it is woven. */
    private boolean pendingEnter;

    /** Ends of the self-covering handler ranges the code is in (javac's release handlers). */
    private final List<Label> selfCoveredUntil = new ArrayList<>(2);

    /** A release to record once out of the self-covering range; the object is in the spare slot. */
    private boolean pendingRelease;

    MonitorMethod(
        MethodVisitor next,
        WeaveTarget target,
        int access,
        String name,
        int classVersion,
        SyncMode mode,
        int maxLocals) {
      super(next, name);
      this.target = target;
      this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
      this.frames = (classVersion & 0xFFFF) >= Opcodes.V1_6;
      this.mode = mode;
      this.lockSlot = maxLocals;
      this.spareSlot = mode == SyncMode.REWRITE ? maxLocals + 1 : maxLocals;
    }

    // ---- synchronized method: prologue, returns, handler --------------------------------------

    @Override
    public void visitCode() {
      super.visitCode();
      if (mode == SyncMode.NONE) {
        return;
      }
      methodRegion = target.regions().reserve();
      if (mode == SyncMode.REWRITE) {
        loadMethodLock();
        mv.visitInsn(Opcodes.DUP);
        mv.visitVarInsn(Opcodes.ASTORE, lockSlot);
        BridgeCalls.push(mv, methodRegion);
        mv.visitInsn(Opcodes.SWAP);
        Bridge.LOCK_REQUEST.call(mv);
        mv.visitVarInsn(Opcodes.ALOAD, lockSlot);
        mv.visitInsn(Opcodes.MONITORENTER);
        mv.visitLabel(bodyStart);
        mv.visitVarInsn(Opcodes.ALOAD, lockSlot);
        mv.visitInsn(Opcodes.ICONST_0);
        Bridge.LOCK_ACQUIRED.call(mv);
      } else {
        loadMethodLock();
        BridgeCalls.push(mv, methodRegion);
        mv.visitInsn(Opcodes.SWAP);
        Bridge.LOCK_REQUEST.call(mv);
        loadMethodLock();
        mv.visitInsn(Opcodes.ICONST_0);
        Bridge.LOCK_ACQUIRED.call(mv);
        mv.visitLabel(bodyStart);
      }
    }

    private void loadMethodLock() {
      if (isStatic) {
        mv.visitLdcInsn(Type.getObjectType(target.internalName()));
      } else {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
      }
    }

    /** Records the release of the method's monitor and, when rewritten, exits it. */
    private void releaseMethodLock() {
      if (mode == SyncMode.REWRITE) {
        mv.visitVarInsn(Opcodes.ALOAD, lockSlot);
        mv.visitInsn(Opcodes.DUP);
        Bridge.LOCK_RELEASED.call(mv);
        mv.visitInsn(Opcodes.MONITOREXIT);
      } else {
        loadMethodLock();
        Bridge.LOCK_RELEASED.call(mv);
      }
    }

    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
      flushEnter(null);
      // A frame ends the spare slot's life (not seen in compiler output): the release is lost.
      pendingRelease = false;
      if (mode == SyncMode.REWRITE && type == Opcodes.F_NEW) {
        // The monitor's slot must stay declared, or the handler's frame would not match.
        Object[] locals = withLockSlot(local, numLocal);
        super.visitFrame(type, locals.length, locals, numStack, stack);
      } else {
        super.visitFrame(type, numLocal, local, numStack, stack);
      }
    }

    /** {@code local} padded with TOP up to the lock slot, which holds an Object. */
    private Object[] withLockSlot(Object[] local, int numLocal) {
      List<Object> out = new ArrayList<>(numLocal + 4);
      int slots = 0;
      for (int i = 0; i < numLocal; i++) {
        out.add(local[i]);
        slots += local[i] == Opcodes.LONG || local[i] == Opcodes.DOUBLE ? 2 : 1;
      }
      for (; slots < lockSlot; slots++) {
        out.add(Opcodes.TOP);
      }
      out.add(OBJECT);
      return out.toArray();
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      flushEnter(null);
      Label end = new Label();
      Label handler = new Label();
      Label handlerEnd = new Label();
      if (mode != SyncMode.NONE) {
        mv.visitLabel(end);
        mv.visitLabel(handler);
        if (frames) {
          Object[] locals;
          if (mode == SyncMode.REWRITE) {
            locals = withLockSlot(new Object[0], 0);
          } else {
            locals = isStatic ? new Object[0] : new Object[] {target.internalName()};
          }
          mv.visitFrame(Opcodes.F_NEW, locals.length, locals, 1, new Object[] {THROWABLE});
        }
        if (mode == SyncMode.REWRITE) {
          // As in javac's handler, nothing that may throw between the handler's start and its
          // monitorexit (the range covers itself; C1 gives up on a call there): the release is
          // recorded just after the monitor is exited.
          mv.visitVarInsn(Opcodes.ALOAD, lockSlot);
          mv.visitInsn(Opcodes.MONITOREXIT);
          mv.visitLabel(handlerEnd);
          mv.visitVarInsn(Opcodes.ALOAD, lockSlot);
          Bridge.LOCK_RELEASED.call(mv);
        } else {
          releaseMethodLock();
          mv.visitLabel(handlerEnd);
        }
        mv.visitInsn(Opcodes.ATHROW);
      }
      flushOriginalHandlers();
      if (mode == SyncMode.REWRITE) {
        // Catch-all ("any"), last: like javac's, so that the JIT sees every path exit the monitor;
        // the handler covers its own release as javac's does.
        mv.visitTryCatchBlock(bodyStart, end, handler, null);
        mv.visitTryCatchBlock(handler, handlerEnd, handler, null);
      } else if (mode == SyncMode.HOOKS) {
        mv.visitTryCatchBlock(bodyStart, end, handler, THROWABLE);
      }
      super.visitMaxs(maxStack, maxLocals);
    }

    @Override
    public void visitEnd() {
      if (mode != SyncMode.NONE) {
        String cls = target.internalName();
        target
            .regions()
            .define(
                methodRegion,
                ConstructKind.SYNCHRONIZED_METHOD,
                "synchronized " + cls.substring(cls.lastIndexOf('/') + 1) + "." + methodName,
                target.binaryName(),
                methodName,
                target.sourceFile(),
                firstLine(),
                lastLine());
      }
      super.visitEnd();
    }

    // ---- blocks
    // -----------------------------------------------------------------------------------

    @Override
    public void visitInsn(int opcode) {
      flushEnter(null);
      if (opcode == Opcodes.MONITORENTER) {
        pendingEnter = true; // woven once the next label shows which handler protects the block
        return;
      }
      if (opcode == Opcodes.MONITOREXIT) {
        target.changed();
        if (selfCoveredUntil.isEmpty()) {
          mv.visitInsn(Opcodes.DUP);
          Bridge.LOCK_RELEASED.call(mv);
        } else {
          // In javac's release handler, which covers itself: no call before the monitorexit.
          mv.visitInsn(Opcodes.DUP);
          mv.visitVarInsn(Opcodes.ASTORE, spareSlot);
          pendingRelease = true;
        }
      } else if (mode != SyncMode.NONE && opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
        releaseMethodLock();
      }
      super.visitInsn(opcode);
    }

    /**
     * Emits a pending {@code monitorenter}. {@code next} is the label that follows it: the block's
     * catch-all handler is the last "any" entry starting there (javac lists inner ones first). The
     * acquisition call goes between the monitorenter and that label, under the same handler.
     */
    private void flushEnter(Label next) {
      if (!pendingEnter) {
        return;
      }
      pendingEnter = false;
      Label handler = null;
      if (next != null) {
        for (TryCatchBlockNode t : originalHandlers()) {
          if (t.type == null && t.start.getLabel() == next) {
            handler = t.handler.getLabel();
          }
        }
      }
      if (handler == null) {
        mv.visitInsn(Opcodes.MONITORENTER);
        return;
      }
      target.changed();
      int region =
          target
              .regions()
              .register(
                  ConstructKind.MONITOR,
                  "synchronized",
                  target.binaryName(),
                  methodName,
                  target.sourceFile(),
                  line(),
                  line());
      mv.visitInsn(Opcodes.DUP);
      BridgeCalls.push(mv, region);
      mv.visitInsn(Opcodes.SWAP);
      Bridge.LOCK_REQUEST.call(mv);
      mv.visitInsn(Opcodes.DUP);
      mv.visitInsn(Opcodes.MONITORENTER);
      Label start = new Label();
      Label end = new Label();
      mv.visitLabel(start);
      mv.visitInsn(Opcodes.ICONST_0);
      Bridge.LOCK_ACQUIRED.call(mv);
      mv.visitLabel(end);
      innermostHandler(start, end, handler, null);
    }

    @Override
    public void visitLabel(Label label) {
      flushEnter(label);
      boolean rangeEnds = selfCoveredUntil.remove(label);
      super.visitLabel(label);
      if (rangeEnds && pendingRelease && selfCoveredUntil.isEmpty()) {
        pendingRelease = false;
        mv.visitVarInsn(Opcodes.ALOAD, spareSlot);
        Bridge.LOCK_RELEASED.call(mv);
      }
      for (TryCatchBlockNode t : originalHandlers()) {
        if (t.start.getLabel() == label && t.handler != null && t.handler.getLabel() == label) {
          selfCoveredUntil.add(t.end.getLabel());
        }
      }
    }

    @Override
    public void visitLineNumber(int line, Label start) {
      flushEnter(null);
      super.visitLineNumber(line, start);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      flushEnter(null);
      super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
      flushEnter(null);
      super.visitVarInsn(opcode, varIndex);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      flushEnter(null);
      super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
      flushEnter(null);
      super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitMethodInsn(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      flushEnter(null);
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitInvokeDynamicInsn(
        String name,
        String descriptor,
        Handle bootstrapMethodHandle,
        Object... bootstrapMethodArguments) {
      flushEnter(null);
      super.visitInvokeDynamicInsn(
          name, descriptor, bootstrapMethodHandle, bootstrapMethodArguments);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
      flushEnter(null);
      super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLdcInsn(Object value) {
      flushEnter(null);
      super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
      flushEnter(null);
      super.visitIincInsn(varIndex, increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
      flushEnter(null);
      super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
      flushEnter(null);
      super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
      flushEnter(null);
      super.visitMultiANewArrayInsn(descriptor, numDimensions);
    }
  }
}
