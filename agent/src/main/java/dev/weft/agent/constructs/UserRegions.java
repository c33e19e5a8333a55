package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.List;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.Attribute;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.TypePath;

/**
 * User regions (POMP's {@code inst begin/end}) and measurement control, the {@code regions} family:
 *
 * <ul>
 *   <li>{@code @Traced} methods: ENTER at the start, EXIT before every return and, through a
 *       catch-all handler that rethrows, when an exception leaves the method. The region is named
 *       by the annotation's value or {@code Class.method} and spans the method's first to last
 *       line.
 *   <li>{@code Weft.region(name)} call sites: an enter call is woven in front of the call, with a
 *       region registered for the call site's file and line; a name computed at run time becomes
 *       one region per distinct name at that site. {@code Region.close()} exits the innermost
 *       region.
 *   <li>{@code Weft.on()}, {@code Weft.off()}, {@code Weft.isRecording()}: their bodies call the
 *       bridge.
 * </ul>
 *
 * These are explicit requests in the user's code, so {@code include=}/{@code exclude=} do not
 * apply; {@code constructs=-regions} turns them off.
 */
public final class UserRegions implements ConstructInstrumentation {
  private static final String API_PACKAGE = "dev/weft/api/";
  private static final String WEFT = "dev/weft/api/Weft";
  private static final String REGION = "dev/weft/api/Region";
  private static final String TRACED = "Ldev/weft/api/Traced;";
  private static final String REGION_DESCRIPTOR = "(Ljava/lang/String;)Ldev/weft/api/Region;";

  @Override
  public Family family() {
    return Family.REGIONS;
  }

  @Override
  public List<String> applicationHints() {
    return List.of(API_PACKAGE);
  }

  @Override
  public boolean honoursClassFilter() {
    return false;
  }

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    if (target.internalName().equals(WEFT) || target.internalName().equals(REGION)) {
      return new ApiClass(next, target);
    }
    // Every method with code: its @Traced enter/exit and its Weft.region call sites.
    return JdkMethods.byMethod(
        next,
        (mv, access, name, descriptor, version) ->
            new UserMethod(mv, target, access, name, descriptor, version));
  }

  /** The api's own classes: bodies of on/off/isRecording and Region.close call the bridge. */
  private static final class ApiClass extends ClassVisitor {
    private final WeaveTarget target;

    ApiClass(ClassVisitor next, WeaveTarget target) {
      super(Opcodes.ASM9, next);
      this.target = target;
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
      String key = target.internalName() + "." + name + descriptor;
      switch (key) {
        case WEFT + ".on()V":
          target.changed();
          return new ReplacedBody(mv, Bridge.MEASUREMENT_ON, Opcodes.RETURN);
        case WEFT + ".off()V":
          target.changed();
          return new ReplacedBody(mv, Bridge.MEASUREMENT_OFF, Opcodes.RETURN);
        case WEFT + ".isRecording()Z":
          target.changed();
          return new ReplacedBody(mv, Bridge.IS_RECORDING, Opcodes.IRETURN);
        case REGION + ".close()V":
          target.changed();
          return new ReplacedBody(mv, Bridge.USER_REGION_EXIT, Opcodes.RETURN);
        default:
          return mv;
      }
    }
  }

  /**
   * Replaces a method's code by {@code return WeftBridge.<bridgeMethod>()}; everything but the code
   * (annotations, parameters) is kept.
   */
  private static final class ReplacedBody extends MethodVisitor {
    private final MethodVisitor out;
    private final Bridge bridgeMethod;
    private final int returnOpcode;

    ReplacedBody(MethodVisitor out, Bridge bridgeMethod, int returnOpcode) {
      super(Opcodes.ASM9, null); // the original code goes nowhere
      this.out = out;
      this.bridgeMethod = bridgeMethod;
      this.returnOpcode = returnOpcode;
    }

    @Override
    public void visitParameter(String name, int access) {
      out.visitParameter(name, access);
    }

    @Override
    public AnnotationVisitor visitAnnotationDefault() {
      return out.visitAnnotationDefault();
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      return out.visitAnnotation(descriptor, visible);
    }

    @Override
    public AnnotationVisitor visitTypeAnnotation(
        int typeRef, TypePath typePath, String descriptor, boolean visible) {
      return out.visitTypeAnnotation(typeRef, typePath, descriptor, visible);
    }

    @Override
    public void visitAnnotableParameterCount(int parameterCount, boolean visible) {
      out.visitAnnotableParameterCount(parameterCount, visible);
    }

    @Override
    public AnnotationVisitor visitParameterAnnotation(
        int parameter, String descriptor, boolean visible) {
      return out.visitParameterAnnotation(parameter, descriptor, visible);
    }

    @Override
    public void visitAttribute(Attribute attribute) {
      out.visitAttribute(attribute);
    }

    @Override
    public void visitCode() {
      out.visitCode();
      bridgeMethod.call(out);
      out.visitInsn(returnOpcode);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      out.visitMaxs(0, 0); // recomputed by the writer
    }

    @Override
    public void visitEnd() {
      out.visitEnd();
    }
  }

  /** Weaves one method: the {@code @Traced} enter/exit and every {@code Weft.region} call site. */
  private static final class UserMethod extends HookedMethod {
    private final WeaveTarget target;
    private boolean traced;
    private String tracedName = "";
    private int region; // of the @Traced method, once reserved
    private String lastLdcString; // the constant just pushed, if the previous instruction was one

    UserMethod(
        MethodVisitor next,
        WeaveTarget target,
        int access,
        String name,
        String descriptor,
        int version) {
      super(next, target.internalName(), access, name, descriptor, version);
      this.target = target;
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      AnnotationVisitor av = super.visitAnnotation(descriptor, visible);
      if (!descriptor.equals(TRACED)) {
        return av;
      }
      traced = true;
      return new AnnotationVisitor(Opcodes.ASM9, av) {
        @Override
        public void visit(String name, Object value) {
          if ("value".equals(name) && value instanceof String) {
            tracedName = (String) value;
          }
          super.visit(name, value);
        }
      };
    }

    @Override
    protected boolean shouldHook() {
      return traced;
    }

    @Override
    protected void onEnter() {
      target.changed();
      region = target.regions().reserve();
      Bridge.ENTER.callWithRegion(mv, region);
    }

    @Override
    protected void onReturn(int opcode) {
      Bridge.EXIT.callWithRegion(mv, region);
    }

    @Override
    protected void onThrow() {
      Bridge.EXIT.callWithRegion(mv, region);
    }

    @Override
    public void visitInsn(int opcode) {
      lastLdcString = null;
      super.visitInsn(opcode);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      lastLdcString = null;
      super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitLdcInsn(Object value) {
      super.visitLdcInsn(value);
      lastLdcString = value instanceof String ? (String) value : null;
    }

    @Override
    public void visitMethodInsn(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      String constantName = lastLdcString;
      lastLdcString = null;
      if (opcode == Opcodes.INVOKESTATIC
          && owner.equals(WEFT)
          && name.equals("region")
          && descriptor.equals(REGION_DESCRIPTOR)) {
        weaveRegionCall(constantName);
      }
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    /** Before {@code Weft.region(name)}: the name is on the stack. */
    private void weaveRegionCall(String constantName) {
      target.changed();
      if (constantName != null) {
        int id =
            target
                .regions()
                .register(
                    ConstructKind.USER_REGION,
                    constantName,
                    target.binaryName(),
                    methodName,
                    target.sourceFile(),
                    line(),
                    line());
        Bridge.USER_REGION_ENTER.callWithRegion(mv, id);
      } else {
        int site =
            target
                .regions()
                .registerSite(
                    ConstructKind.USER_REGION,
                    target.binaryName(),
                    methodName,
                    target.sourceFile(),
                    line());
        mv.visitInsn(Opcodes.DUP);
        BridgeCalls.push(mv, site);
        Bridge.USER_REGION_ENTER_NAMED.call(mv);
      }
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      lastLdcString = null;
      super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
      lastLdcString = null;
      super.visitVarInsn(opcode, varIndex);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
      lastLdcString = null;
      super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
      lastLdcString = null;
      super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLabel(Label label) {
      lastLdcString = null;
      super.visitLabel(label);
    }

    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
      lastLdcString = null;
      super.visitFrame(type, numLocal, local, numStack, stack);
    }

    @Override
    public void visitEnd() {
      if (traced) {
        String name = tracedName;
        if (name.isEmpty()) {
          String cls = target.internalName();
          name = cls.substring(cls.lastIndexOf('/') + 1) + "." + methodName;
        }
        target
            .regions()
            .define(
                region,
                ConstructKind.TRACED_METHOD,
                name,
                target.binaryName(),
                methodName,
                target.sourceFile(),
                firstLine(),
                lastLine());
      }
      super.visitEnd();
    }
  }
}
