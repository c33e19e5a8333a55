package dev.weft.agent.constructs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.AnalyzerAdapter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MultiANewArrayInsnNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The types of a method's locals and operand stack at a call that may be woven, worked out only
 * there. Passes every instruction on at once and keeps those since the last stack map frame (the
 * reader expands every frame); asked for the types, it runs an {@link AnalyzerAdapter} from that
 * frame over them. Tracking every instruction of every woven method instead made the analyzer's one
 * large method hot enough for the JIT's second tier, whose compilations of it (0.7 s each,
 * recompiled after deoptimisation) held back the program's own hot methods in a short run.
 *
 * <p>The analyzer given by {@link #at()} is the same one until the next frame and stays up to date
 * with what it is given: code woven through it (after {@link #emitThrough}) is counted once.
 */
final class CallSiteFrames extends MethodVisitor {
  private final String owner;
  private final int access;
  private final String name;
  private final String descriptor;

  /** The last frame's types, or null before the first one (the method's start). */
  private Object[] frameLocals;

  private Object[] frameStack;

  /** Instructions and labels since the last frame that {@link #analyzer} has not seen. */
  private final List<AbstractInsnNode> pending = new ArrayList<>();

  /** Labels since the last instruction: a {@code new} is known by them in frames. */
  private final List<Label> labelsBefore = new ArrayList<>(2);

  /** Every {@code new} of the method so far: its label to its type (as the analyzer keeps them). */
  private final Map<Object, Object> uninitialized = new HashMap<>();

  /** Up to date with the instructions up to {@link #pending}; null: start again from the frame. */
  private Analyzer analyzer;

  CallSiteFrames(String owner, int access, String name, String descriptor, MethodVisitor next) {
    super(Opcodes.ASM9, next);
    this.owner = owner;
    this.access = access;
    this.name = name;
    this.descriptor = descriptor;
  }

  /** An analyzer holding the types at this point of the method (null locals: unreachable). */
  AnalyzerAdapter at() {
    if (analyzer == null) {
      analyzer = new Analyzer(owner, access, name, descriptor);
      analyzer.uninitializedTypes.putAll(uninitialized);
      if (frameLocals != null) {
        analyzer.visitFrame(
            Opcodes.F_NEW, frameLocals.length, frameLocals, frameStack.length, frameStack);
      }
    }
    for (AbstractInsnNode insn : pending) {
      insn.accept(analyzer);
    }
    pending.clear();
    return analyzer;
  }

  /**
   * Makes {@link #at()}'s analyzer pass what it is given on to the rest of the chain (true), as
   * woven code must, or not (false, while it catches up).
   */
  void emitThrough(boolean on) {
    at();
    analyzer.forwardTo(on ? mv : null);
    labelsBefore.clear(); // what was woven came after them
  }

  @Override
  public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
    super.visitFrame(type, numLocal, local, numStack, stack);
    // The reader reuses its arrays.
    frameLocals = Arrays.copyOf(local, numLocal);
    frameStack = Arrays.copyOf(stack, numStack);
    analyzer = null;
    pending.clear();
    for (Label l : labelsBefore) {
      pending.add(new LabelNode(l)); // a new right after the frame still needs its label
    }
  }

  @Override
  public void visitLabel(Label label) {
    super.visitLabel(label);
    labelsBefore.add(label);
    pending.add(new LabelNode(label));
  }

  private void add(AbstractInsnNode insn) {
    labelsBefore.clear();
    pending.add(insn);
  }

  @Override
  public void visitInsn(int opcode) {
    super.visitInsn(opcode);
    add(new InsnNode(opcode));
  }

  @Override
  public void visitIntInsn(int opcode, int operand) {
    super.visitIntInsn(opcode, operand);
    add(new IntInsnNode(opcode, operand));
  }

  @Override
  public void visitVarInsn(int opcode, int varIndex) {
    super.visitVarInsn(opcode, varIndex);
    add(new VarInsnNode(opcode, varIndex));
  }

  @Override
  public void visitTypeInsn(int opcode, String type) {
    if (opcode == Opcodes.NEW) {
      if (labelsBefore.isEmpty()) {
        // As the analyzer does: frames written at woven calls may name this new by its label.
        visitLabel(new Label());
      }
      for (Label l : labelsBefore) {
        uninitialized.put(l, type);
      }
    }
    super.visitTypeInsn(opcode, type);
    add(new TypeInsnNode(opcode, type));
  }

  @Override
  public void visitFieldInsn(int opcode, String fieldOwner, String fieldName, String desc) {
    super.visitFieldInsn(opcode, fieldOwner, fieldName, desc);
    add(new FieldInsnNode(opcode, fieldOwner, fieldName, desc));
  }

  @Override
  public void visitMethodInsn(
      int opcode, String callOwner, String callName, String desc, boolean isInterface) {
    super.visitMethodInsn(opcode, callOwner, callName, desc, isInterface);
    add(new MethodInsnNode(opcode, callOwner, callName, desc, isInterface));
  }

  @Override
  public void visitInvokeDynamicInsn(
      String indyName, String desc, Handle bootstrap, Object... arguments) {
    super.visitInvokeDynamicInsn(indyName, desc, bootstrap, arguments);
    add(new InvokeDynamicInsnNode(indyName, desc, bootstrap, arguments));
  }

  @Override
  public void visitJumpInsn(int opcode, Label label) {
    super.visitJumpInsn(opcode, label);
    add(new JumpInsnNode(opcode, new LabelNode(label)));
  }

  @Override
  public void visitLdcInsn(Object value) {
    super.visitLdcInsn(value);
    add(new LdcInsnNode(value));
  }

  @Override
  public void visitIincInsn(int varIndex, int increment) {
    super.visitIincInsn(varIndex, increment);
    add(new IincInsnNode(varIndex, increment));
  }

  @Override
  public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
    super.visitTableSwitchInsn(min, max, dflt, labels);
    add(new TableSwitchInsnNode(min, max, new LabelNode(dflt), nodes(labels)));
  }

  @Override
  public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
    super.visitLookupSwitchInsn(dflt, keys, labels);
    add(new LookupSwitchInsnNode(new LabelNode(dflt), keys, nodes(labels)));
  }

  @Override
  public void visitMultiANewArrayInsn(String desc, int numDimensions) {
    super.visitMultiANewArrayInsn(desc, numDimensions);
    add(new MultiANewArrayInsnNode(desc, numDimensions));
  }

  private static LabelNode[] nodes(Label[] labels) {
    LabelNode[] out = new LabelNode[labels.length];
    for (int i = 0; i < labels.length; i++) {
      out[i] = new LabelNode(labels[i]);
    }
    return out;
  }

  /** An analyzer whose output can be switched on (for woven code) and off (while replaying). */
  private static final class Analyzer extends AnalyzerAdapter {
    Analyzer(String owner, int access, String name, String descriptor) {
      super(Opcodes.ASM9, owner, access, name, descriptor, null);
    }

    void forwardTo(MethodVisitor next) {
      mv = next;
    }
  }
}
