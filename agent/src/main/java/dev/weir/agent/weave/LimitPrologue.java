package dev.weir.agent.weave;

import dev.weir.agent.weave.ClassModel.MethodModel;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * The bytecode woven at the start of a limited method: a trampoline into {@code WeirBridge} with
 * the limiter's id and name as constants, then either the original body or the limit.
 *
 * <pre>{@code
 * long r = WeirBridge.acquire(ID);                    // or acquire(ID, String.valueOf(key))
 * if (r != 0L) {
 *   return fallback(args..., [exception]);            // with a fallback
 *   throw WeirBridge.limited(new RateLimitedException(NAME, WeirBridge.retryAfterNanos(r)), r);
 * }
 * ...the original body...
 * }</pre>
 *
 * <p>Written as plain instructions rather than Byte Buddy {@code Advice}: the limited branch ends
 * in {@code athrow} or a return, so the body is untouched (no new locals, no exception table, no
 * exit code), the one frame added is the entry frame plus the result on the stack, and a fallback
 * is an ordinary call with the method's own arguments. The exception is constructed in the woven
 * class, so it is the {@code RateLimitedException} that class's own loader sees. In a constructor
 * the prologue runs before the super constructor call and never touches {@code this}. In a {@code
 * synchronized} method it runs inside the monitor, which the JVM takes on entry: a {@code WAIT}
 * there waits holding it.
 *
 * <p>Immutable and thread-safe.
 */
final class LimitPrologue {
  private static final String BRIDGE = "dev/weir/agent/bootstrap/WeirBridge";
  private static final String EXCEPTION = "dev/weir/RateLimitedException";

  private final ClassModel type;
  private final MethodModel method;
  private final int limiterId;
  private final String limiterName;
  private final int keyIndex;
  private final MethodModel fallback;
  private final boolean fallbackTakesException;
  private final boolean outermostOnly;

  /**
   * Describes one method's prologue.
   *
   * @param type the class of the method
   * @param method the limited method
   * @param limiterId the limiter's id in the registry
   * @param limiterName the name the exception carries
   * @param keyIndex the parameter whose value is the key, or -1 for one bucket
   * @param fallback the validated fallback method, or null to throw
   * @param fallbackTakesException whether the fallback's last parameter is the exception
   * @param outermostOnly charge only the outermost call of the limiter on a thread (config
   *     patterns): the body is wrapped so that every exit leaves the limiter; constructors are
   *     charged on every call
   */
  LimitPrologue(
      ClassModel type,
      MethodModel method,
      int limiterId,
      String limiterName,
      int keyIndex,
      MethodModel fallback,
      boolean fallbackTakesException,
      boolean outermostOnly) {
    this.type = type;
    this.method = method;
    this.limiterId = limiterId;
    this.limiterName = limiterName;
    this.keyIndex = keyIndex;
    this.fallback = fallback;
    this.fallbackTakesException = fallbackTakesException;
    this.outermostOnly = outermostOnly;
  }

  /** The limited method's name and descriptor, {@code run(I)I}. */
  String methodKey() {
    return method.name + method.descriptor;
  }

  /**
   * Wraps the visitor that writes the method, so that the prologue comes first. The method's own
   * stack map frames must arrive compressed, as a class reader without {@code EXPAND_FRAMES}
   * delivers them: the prologue's frames are written relative to them.
   *
   * @param methodVisitor the visitor that writes the method
   * @return the wrapping visitor
   */
  MethodVisitor wrap(MethodVisitor methodVisitor) {
    return new Writer(methodVisitor);
  }

  private final class Writer extends MethodVisitor {
    private final boolean frames;
    private final int argumentsSize;
    private final boolean nesting;
    private final Label bodyStart = new Label();

    Writer(MethodVisitor delegate) {
      super(OpenedClassReader.ASM_API, delegate);
      this.frames = type.hasFrames();
      this.argumentsSize = method.argumentsSize(); // includes this for instance methods
      this.nesting = outermostOnly && !method.isConstructor();
    }

    @Override
    public void visitCode() {
      super.visitCode();
      mv.visitLdcInsn(limiterId);
      if (keyIndex >= 0) {
        Type keyType = method.parameterTypes[keyIndex];
        mv.visitVarInsn(keyType.getOpcode(Opcodes.ILOAD), method.slotOf(keyIndex));
        if (keyType.getSort() == Type.ARRAY) { // by content, not by identity
          boolean primitives =
              keyType.getDimensions() == 1 && keyType.getElementType().getSort() != Type.OBJECT;
          mv.visitMethodInsn(
              Opcodes.INVOKESTATIC,
              "java/util/Arrays",
              primitives ? "toString" : "deepToString",
              "("
                  + (primitives ? keyType.getDescriptor() : "[Ljava/lang/Object;")
                  + ")Ljava/lang/String;",
              false);
        } else {
          mv.visitMethodInsn(
              Opcodes.INVOKESTATIC,
              "java/lang/String",
              "valueOf",
              "(" + valueOfParameter(keyType) + ")Ljava/lang/String;",
              false);
        }
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC, BRIDGE, acquire(), "(ILjava/lang/String;)J", false);
      } else {
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, acquire(), "(I)J", false);
      }
      Label proceed = new Label();
      mv.visitInsn(Opcodes.DUP2);
      mv.visitInsn(Opcodes.LCONST_0);
      mv.visitInsn(Opcodes.LCMP);
      mv.visitJumpInsn(Opcodes.IFEQ, proceed);
      int result = argumentsSize; // a free local: the body has not started
      mv.visitVarInsn(Opcodes.LSTORE, result);
      if (fallback == null) {
        newException(result);
        mv.visitInsn(Opcodes.ATHROW);
      } else {
        callFallback(result);
      }
      mv.visitLabel(proceed);
      if (frames) {
        mv.visitFrame(Opcodes.F_SAME1, 0, null, 1, new Object[] {Opcodes.LONG});
      }
      mv.visitInsn(Opcodes.POP2); // also keeps the body's first frame off this offset
      if (nesting) {
        mv.visitLabel(bodyStart);
      }
    }

    private String acquire() {
      return nesting ? "acquireOutermost" : "acquire";
    }

    /** Leaves the limiter before each return of the body (config patterns). */
    @Override
    public void visitInsn(int opcode) {
      if (nesting && opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
        leave();
      }
      super.visitInsn(opcode);
    }

    private void leave() {
      mv.visitLdcInsn(limiterId);
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "leave", "(I)V", false);
    }

    /** Leaves the completed exception on the stack. */
    private void newException(int result) {
      mv.visitTypeInsn(Opcodes.NEW, EXCEPTION);
      mv.visitInsn(Opcodes.DUP);
      mv.visitLdcInsn(limiterName);
      mv.visitVarInsn(Opcodes.LLOAD, result);
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "retryAfterNanos", "(J)J", false);
      mv.visitMethodInsn(
          Opcodes.INVOKESPECIAL, EXCEPTION, "<init>", "(Ljava/lang/String;J)V", false);
      mv.visitVarInsn(Opcodes.LLOAD, result);
      mv.visitMethodInsn(
          Opcodes.INVOKESTATIC,
          BRIDGE,
          "limited",
          "(Ljava/lang/RuntimeException;J)Ljava/lang/RuntimeException;",
          false);
    }

    private void callFallback(int result) {
      boolean isInterface = type.isInterface();
      if (!fallback.isStatic()) {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
      }
      for (int i = 0; i < method.parameterTypes.length; i++) {
        mv.visitVarInsn(method.parameterTypes[i].getOpcode(Opcodes.ILOAD), method.slotOf(i));
      }
      if (fallbackTakesException) {
        newException(result);
        mv.visitTypeInsn(Opcodes.CHECKCAST, EXCEPTION);
      }
      int opcode;
      if (fallback.isStatic()) {
        opcode = Opcodes.INVOKESTATIC;
      } else if (fallback.is(Opcodes.ACC_PRIVATE)) {
        opcode = Opcodes.INVOKESPECIAL;
      } else {
        opcode = isInterface ? Opcodes.INVOKEINTERFACE : Opcodes.INVOKEVIRTUAL;
      }
      mv.visitMethodInsn(
          opcode, type.internalName, fallback.name, fallback.descriptor, isInterface);
      mv.visitInsn(method.returnType.getOpcode(Opcodes.IRETURN));
    }

    @Override
    public void visitFrame(
        int frameType, int localCount, Object[] locals, int stackCount, Object[] stack) {
      if (frames) { // a class file older than Java 6 has no stack map frames to keep
        super.visitFrame(frameType, localCount, locals, stackCount, stack);
      }
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      if (nesting) {
        // leave on an exception too: a catch-all after the body's own handlers, so theirs win
        Label bodyEnd = new Label();
        Label handler = new Label();
        mv.visitLabel(bodyEnd);
        mv.visitLabel(handler);
        if (frames) {
          Object[] thrown = {"java/lang/Throwable"};
          mv.visitFrame(Opcodes.F_FULL, 0, new Object[0], 1, thrown);
        }
        leave();
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitTryCatchBlock(bodyStart, bodyEnd, handler, null);
      }
      // the prologue needs at most the arguments again (for a fallback) plus the exception
      super.visitMaxs(
          Math.max(maxStack, argumentsSize + 8), Math.max(maxLocals, argumentsSize + 2));
    }
  }

  /** The {@code String.valueOf} overload Java source would pick (arrays are keyed apart). */
  private static String valueOfParameter(Type t) {
    switch (t.getSort()) {
      case Type.BOOLEAN:
        return "Z";
      case Type.CHAR:
        return "C";
      case Type.BYTE:
      case Type.SHORT:
      case Type.INT:
        return "I";
      case Type.FLOAT:
        return "F";
      case Type.LONG:
        return "J";
      case Type.DOUBLE:
        return "D";
      default:
        return "Ljava/lang/Object;";
    }
  }
}
