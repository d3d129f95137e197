package dev.weir.agent.weave;

import dev.weir.agent.weave.ClassModel.MethodModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * <p>A config pattern's prologue charges only the outermost call of its limiter on a thread, and
 * must leave the limiter whatever the body throws, a {@code StackOverflowError} included:
 *
 * <pre>{@code
 * int[] cell = WeirBridge.enter(ID);                 // set if this call is the outermost
 * try {
 *   long r = WeirBridge.acquireOutermost(ID, cell);  // free when nested
 *   if (r != 0L) { cell[0] = 0; ...throw or fallback as above... }
 *   ...the original body, with cell[0] = 0 before each return...
 * } catch (Throwable t) { cell[0] = 0; throw t; }    // after the body's own handlers
 * }</pre>
 *
 * Clearing is a plain array store, never a call, so it cannot overflow the stack. The cell lives in
 * the first local after the body's own ({@code max_locals}), so each of the body's stack map frames
 * is rewritten as a full frame that also declares it.
 *
 * <p>Immutable and thread-safe.
 */
final class LimitPrologue {
  private static final String BRIDGE = "dev/weir/agent/bootstrap/limit/WeirBridge";
  private static final String EXCEPTION = "dev/weir/RateLimitedException";

  private final ClassModel type;
  private final MethodModel method;
  private final int limiterId;
  private final String limiterName;
  private final int keyIndex;
  private final MethodModel fallback;
  private final boolean fallbackTakesException;
  private final boolean outermostOnly;

  /** Whether the limiter is a {@code LimitGroup}: several limits on the method. */
  private final boolean group;

  /**
   * For an implementation that a {@code Type+} pattern's subtypes inherit from a class that is not
   * one of them: the binary name of that type, and the call is charged only when {@code this} is an
   * instance of it; null otherwise.
   */
  private final String onlyForInstancesOf;

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
    this(
        type,
        method,
        limiterId,
        limiterName,
        keyIndex,
        fallback,
        fallbackTakesException,
        outermostOnly,
        null,
        false);
  }

  /**
   * Describes one method's prologue, charged only for instances of a type.
   *
   * @param onlyForInstancesOf the binary name of a {@code Type+} pattern's type: the call is
   *     charged only when {@code this} is an instance of it (an implementation inherited by that
   *     type's subtypes from a class that is not one); null to charge every call. Needs {@code
   *     outermostOnly} and an instance method.
   * @param group whether the limiter is a {@code LimitGroup} (several limits on the method): the
   *     prologue enters it with {@code enterGroup}, and a refusal names the limit the group says
   */
  LimitPrologue(
      ClassModel type,
      MethodModel method,
      int limiterId,
      String limiterName,
      int keyIndex,
      MethodModel fallback,
      boolean fallbackTakesException,
      boolean outermostOnly,
      String onlyForInstancesOf,
      boolean group) {
    if (onlyForInstancesOf != null && (!outermostOnly || method.isStatic() || group)) {
      throw new IllegalArgumentException(
          "a prologue for instances of a type is a config pattern's, on an instance method");
    }
    this.onlyForInstancesOf = onlyForInstancesOf;
    this.type = type;
    this.method = method;
    this.limiterId = limiterId;
    this.limiterName = limiterName;
    this.keyIndex = keyIndex;
    this.fallback = fallback;
    this.fallbackTakesException = fallbackTakesException;
    this.outermostOnly = outermostOnly;
    this.group = group;
  }

  /** The limited method. */
  MethodModel method() {
    return method;
  }

  /** The limited method for messages: {@code com.acme.Outer$Inner#send(int)}. */
  String origin() {
    return type.origin(method);
  }

  /** Whether the prologue charges only the outermost call of its limiter on a thread. */
  boolean nesting() {
    return outermostOnly && !method.isConstructor();
  }

  /**
   * Wraps the visitor that writes the method, so that the prologue comes first. The method's own
   * stack map frames must arrive compressed, as a class reader without {@code EXPAND_FRAMES}
   * delivers them: the prologue's frames are written relative to them.
   *
   * @param methodVisitor the visitor that writes the method
   * @param bodyMaxLocals the method's {@code max_locals} as its class file gives it; read only for
   *     a {@linkplain #nesting() nesting} prologue, which keeps its cell in the first local after
   *     them
   * @return the wrapping visitor
   */
  MethodVisitor wrap(MethodVisitor methodVisitor, int bodyMaxLocals) {
    return new Writer(methodVisitor, bodyMaxLocals);
  }

  /**
   * Writes the whole code of a wrapper under the limited method's name: the prologue, then a call
   * of {@code bodyName}, the method's original body moved to a private method of its own (a body
   * too large to take the prologue in place, or a native method renamed with the native method
   * prefix). The caller has opened the method and closes it with {@code visitEnd}.
   *
   * @param methodVisitor the visitor that writes the wrapper
   * @param bodyName the name of the method holding the body, same descriptor
   */
  void writeWrapper(MethodVisitor methodVisitor, String bodyName) {
    writeCalling(methodVisitor, type.internalName, bodyName, type.isInterface());
  }

  /**
   * Writes the whole code of an override that a class gains for a limited implementation it
   * inherits (a {@code Type+} pattern's subtype inheriting the method from a class that is not
   * one): the prologue, then {@code super.NAME(arguments)}. The caller has opened the method and
   * closes it with {@code visitEnd}.
   *
   * @param methodVisitor the visitor that writes the override
   * @param superName the internal name of the class's direct superclass
   */
  void writeOverride(MethodVisitor methodVisitor, String superName) {
    writeCalling(methodVisitor, superName, method.name, false);
  }

  /**
   * Writes an override that only calls {@code super}: an override a class gained when it loaded,
   * for a limit that no longer applies to it (a retransformed class keeps its methods).
   *
   * @param methodVisitor the visitor, its method opened
   * @param method the overriding method
   * @param superName the internal name of the class's direct superclass
   */
  static void writePlainOverride(
      MethodVisitor methodVisitor, MethodModel method, String superName) {
    writePlainCall(methodVisitor, method, superName, method.name, false);
  }

  /**
   * Writes a wrapper that only calls the body moved out of it: a method whose body moved when its
   * class loaded, for a limit that no longer applies to it (a retransformed class keeps its
   * methods).
   *
   * @param methodVisitor the visitor, its method opened
   * @param owner the class's internal name
   * @param ownerIsInterface whether the class is an interface
   * @param method the wrapper's method
   */
  static void writePlainWrapper(
      MethodVisitor methodVisitor, String owner, boolean ownerIsInterface, MethodModel method) {
    writePlainCall(
        methodVisitor, method, owner, Weaver.MOVED_PREFIX + method.name, ownerIsInterface);
  }

  /** {@code return owner.name(arguments)}: invokestatic for a static method, else invokespecial. */
  private static void writePlainCall(
      MethodVisitor mv, MethodModel method, String owner, String name, boolean ownerIsInterface) {
    mv.visitCode();
    pushArguments(mv, method);
    mv.visitMethodInsn(
        method.isStatic() ? Opcodes.INVOKESTATIC : Opcodes.INVOKESPECIAL,
        owner,
        name,
        method.descriptor,
        ownerIsInterface);
    mv.visitInsn(method.returnType.getOpcode(Opcodes.IRETURN));
    mv.visitMaxs(method.argumentsSize() + 2, method.argumentsSize());
  }

  private static void pushArguments(MethodVisitor mv, MethodModel method) {
    if (!method.isStatic()) {
      mv.visitVarInsn(Opcodes.ALOAD, 0);
    }
    for (int i = 0; i < method.parameterTypes.length; i++) {
      mv.visitVarInsn(method.parameterTypes[i].getOpcode(Opcodes.ILOAD), method.slotOf(i));
    }
  }

  /** The prologue, then a call of {@code owner.name} with the method's own arguments. */
  private void writeCalling(
      MethodVisitor methodVisitor, String owner, String name, boolean ownerIsInterface) {
    int argumentsSize = method.argumentsSize();
    Writer writer = new Writer(methodVisitor, argumentsSize);
    writer.visitCode();
    pushArguments(writer, method);
    writer.visitMethodInsn(
        method.isStatic() ? Opcodes.INVOKESTATIC : Opcodes.INVOKESPECIAL,
        owner,
        name,
        method.descriptor,
        ownerIsInterface);
    writer.visitInsn(method.returnType.getOpcode(Opcodes.IRETURN));
    writer.visitMaxs(argumentsSize + 2, argumentsSize);
  }

  /**
   * Writes the whole code of a method that fails closed: every call throws {@link
   * IllegalStateException} with {@code message}. For a method that cannot be limited at all (a
   * constructor too large to take the prologue, whose body cannot move elsewhere; a servlet's
   * {@code service} too large to take the http limits' check). The caller has opened the method and
   * closes it with {@code visitEnd}.
   *
   * @param methodVisitor the visitor that writes the method
   * @param argumentsSize the local slots its arguments take ({@code this} included)
   * @param message why it cannot be limited, naming it
   */
  static void writeFailClosed(MethodVisitor methodVisitor, int argumentsSize, String message) {
    methodVisitor.visitCode();
    methodVisitor.visitTypeInsn(Opcodes.NEW, "java/lang/IllegalStateException");
    methodVisitor.visitInsn(Opcodes.DUP);
    methodVisitor.visitLdcInsn(message);
    methodVisitor.visitMethodInsn(
        Opcodes.INVOKESPECIAL,
        "java/lang/IllegalStateException",
        "<init>",
        "(Ljava/lang/String;)V",
        false);
    methodVisitor.visitInsn(Opcodes.ATHROW);
    methodVisitor.visitMaxs(3, argumentsSize);
  }

  private final class Writer extends MethodVisitor {
    private final boolean frames;
    private final int argumentsSize;
    private final boolean nesting;

    /** Nesting: the local that holds the cell {@code WeirBridge.enter} returned. */
    private final int cell;

    /** The long local that holds a limited call's result (the body has not started). */
    private final int result;

    private final Label tryStart = new Label();

    /** Nesting: the body's locals as its own frames declare them (compressed frame entries). */
    private List<Object> bodyLocals;

    Writer(MethodVisitor delegate, int bodyMaxLocals) {
      super(OpenedClassReader.ASM_API, delegate);
      this.frames = type.hasFrames();
      this.argumentsSize = method.argumentsSize(); // includes this for instance methods
      this.nesting = nesting();
      this.cell = bodyMaxLocals;
      this.result = nesting ? cell + 1 : argumentsSize;
      if (nesting && bodyMaxLocals < argumentsSize) {
        throw new IllegalStateException(
            "max_locals " + bodyMaxLocals + " is below the arguments' " + argumentsSize);
      }
    }

    @Override
    public void visitCode() {
      super.visitCode();
      acquire();
      Label proceed = new Label();
      mv.visitInsn(Opcodes.DUP2);
      mv.visitInsn(Opcodes.LCONST_0);
      mv.visitInsn(Opcodes.LCMP);
      mv.visitJumpInsn(Opcodes.IFEQ, proceed);
      mv.visitVarInsn(Opcodes.LSTORE, result);
      if (nesting) {
        clearCell(); // the body will not run; a fallback is a call of its own
      }
      if (fallback == null) {
        newException(result);
        mv.visitInsn(Opcodes.ATHROW);
      } else {
        callFallback(result);
      }
      mv.visitLabel(proceed);
      if (frames) {
        proceedFrame();
      }
      mv.visitInsn(Opcodes.POP2); // also keeps the body's first frame off this offset
    }

    /**
     * Calls the bridge's acquire, which leaves its result on the stack: a long, 0 to proceed. A
     * nesting prologue enters the limiter first and keeps the cell in its local, inside the range
     * its catch-all covers.
     */
    private void acquire() {
      mv.visitLdcInsn(limiterId);
      if (keyIndex >= 0) {
        pushKey();
      }
      if (nesting) {
        // the cell comes back last and goes into a local at once: from here on, the handler
        // written in visitMaxs clears it whatever is thrown, the acquire's own errors included
        mv.visitLdcInsn(limiterId);
        if (onlyForInstancesOf != null) {
          mv.visitVarInsn(Opcodes.ALOAD, 0);
          mv.visitLdcInsn(onlyForInstancesOf);
          mv.visitMethodInsn(
              Opcodes.INVOKESTATIC,
              BRIDGE,
              "enter",
              "(ILjava/lang/Object;Ljava/lang/String;)[I",
              false);
        } else {
          mv.visitMethodInsn(
              Opcodes.INVOKESTATIC, BRIDGE, group ? "enterGroup" : "enter", "(I)[I", false);
        }
        mv.visitInsn(Opcodes.DUP);
        mv.visitVarInsn(Opcodes.ASTORE, cell);
        mv.visitLabel(tryStart);
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC,
            BRIDGE,
            group ? "acquireGroup" : "acquireOutermost",
            keyIndex >= 0 ? "(ILjava/lang/String;[I)J" : "(I[I)J",
            false);
      } else {
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC,
            BRIDGE,
            "acquire",
            keyIndex >= 0 ? "(ILjava/lang/String;)J" : "(I)J",
            false);
      }
    }

    /**
     * The frame where the body starts, the acquire's result still on the stack: the entry frame
     * plus a long, with the cell among the locals for a nesting prologue.
     */
    private void proceedFrame() {
      Object[] onStack = {Opcodes.LONG};
      if (nesting) {
        bodyLocals = initialLocals();
        Object[] locals = withCell(bodyLocals);
        mv.visitFrame(Opcodes.F_FULL, locals.length, locals, 1, onStack);
      } else {
        mv.visitFrame(Opcodes.F_SAME1, 0, null, 1, onStack);
      }
    }

    /** Pushes {@code String.valueOf} of the key argument (arrays by content). */
    private void pushKey() {
      Type keyType = method.parameterTypes[keyIndex];
      mv.visitVarInsn(keyType.getOpcode(Opcodes.ILOAD), method.slotOf(keyIndex));
      if (keyType.getSort() == Type.ARRAY) { // by content, not by identity, as Weir's own work
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC,
            BRIDGE,
            "arrayKey",
            "(Ljava/lang/Object;)Ljava/lang/String;",
            false);
      } else {
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC,
            "java/lang/String",
            "valueOf",
            "(" + valueOfParameter(keyType) + ")Ljava/lang/String;",
            false);
      }
    }

    /** Clears the cell before each return of the body (config patterns). */
    @Override
    public void visitInsn(int opcode) {
      if (nesting && opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
        clearCell();
      }
      super.visitInsn(opcode);
    }

    /**
     * {@code cell[0] = 0}: a plain array store, no call, so no {@code StackOverflowError} can come
     * between the body and it; idempotent, so clearing twice is harmless.
     */
    private void clearCell() {
      mv.visitVarInsn(Opcodes.ALOAD, cell);
      mv.visitInsn(Opcodes.ICONST_0);
      mv.visitInsn(Opcodes.ICONST_0);
      mv.visitInsn(Opcodes.IASTORE);
    }

    /** Leaves the completed exception on the stack. */
    private void newException(int result) {
      mv.visitTypeInsn(Opcodes.NEW, EXCEPTION);
      mv.visitInsn(Opcodes.DUP);
      if (group) {
        mv.visitLdcInsn(limiterId); // the refusing limit, as the group decided
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC, BRIDGE, "refusedBy", "(I)Ljava/lang/String;", false);
      } else {
        mv.visitLdcInsn(limiterName);
      }
      mv.visitVarInsn(Opcodes.LLOAD, result);
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "retryAfterNanos", "(J)J", false);
      mv.visitMethodInsn(
          Opcodes.INVOKESPECIAL, EXCEPTION, "<init>", "(Ljava/lang/String;J)V", false);
      mv.visitVarInsn(Opcodes.LLOAD, result);
      if (group) {
        mv.visitLdcInsn(limiterId);
      }
      mv.visitMethodInsn(
          Opcodes.INVOKESTATIC,
          BRIDGE,
          "limited",
          group
              ? "(Ljava/lang/RuntimeException;JI)Ljava/lang/RuntimeException;"
              : "(Ljava/lang/RuntimeException;J)Ljava/lang/RuntimeException;",
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

    /**
     * Passes the body's frames on; with a nesting prologue, each as a full frame that also declares
     * the cell's local, which the body's own frames know nothing of.
     */
    @Override
    public void visitFrame(
        int frameType, int localCount, Object[] locals, int stackCount, Object[] stack) {
      if (!frames) { // a class file older than Java 6 has no stack map frames to keep
        return;
      }
      if (!nesting) {
        super.visitFrame(frameType, localCount, locals, stackCount, stack);
        return;
      }
      Object[] onStack;
      switch (frameType) {
        case Opcodes.F_NEW:
        case Opcodes.F_FULL:
          bodyLocals = new ArrayList<Object>(Arrays.asList(locals).subList(0, localCount));
          onStack = Arrays.copyOf(stack, stackCount);
          break;
        case Opcodes.F_APPEND:
          bodyLocals.addAll(Arrays.asList(locals).subList(0, localCount));
          onStack = new Object[0];
          break;
        case Opcodes.F_CHOP:
          for (int i = 0; i < localCount; i++) {
            bodyLocals.remove(bodyLocals.size() - 1);
          }
          onStack = new Object[0];
          break;
        case Opcodes.F_SAME1:
          onStack = new Object[] {stack[0]};
          break;
        default: // F_SAME
          onStack = new Object[0];
          break;
      }
      Object[] full = withCell(bodyLocals);
      super.visitFrame(Opcodes.F_FULL, full.length, full, onStack.length, onStack);
    }

    /** The body's frame locals, then TOP up to the cell's local, then the cell. */
    private Object[] withCell(List<Object> body) {
      int slots = 0;
      for (Object local : body) {
        slots += local == Opcodes.LONG || local == Opcodes.DOUBLE ? 2 : 1;
      }
      if (slots > cell) {
        throw new IllegalStateException(
            "a frame declares " + slots + " local slots, beyond max_locals " + cell);
      }
      List<Object> full = new ArrayList<Object>(body);
      for (int i = slots; i < cell; i++) {
        full.add(Opcodes.TOP);
      }
      full.add(CELL_TYPE);
      return full.toArray();
    }

    /** The locals a method's implicit first frame holds: {@code this} and the parameters. */
    private List<Object> initialLocals() {
      List<Object> locals = new ArrayList<Object>();
      if (!method.isStatic()) {
        locals.add(type.internalName); // never a constructor: those do not nest
      }
      for (Type parameter : method.parameterTypes) {
        locals.add(frameType(parameter));
      }
      return locals;
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      int locals = Math.max(maxLocals, argumentsSize + 2);
      if (nesting) {
        // clear the cell on any throwable too: a catch-all after the body's own handlers, so
        // theirs win; it makes no call, so it cannot overflow the stack itself
        Label bodyEnd = new Label();
        mv.visitLabel(bodyEnd);
        if (frames) {
          Object[] top = new Object[cell + 1];
          Arrays.fill(top, Opcodes.TOP);
          top[cell] = CELL_TYPE;
          mv.visitFrame(Opcodes.F_FULL, top.length, top, 1, new Object[] {THROWABLE});
        }
        clearCell();
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitTryCatchBlock(tryStart, bodyEnd, bodyEnd, null);
        locals = Math.max(maxLocals, result + 2);
      }
      // the prologue needs at most the arguments again (for a fallback) plus the exception; a
      // nesting exit pushes three values on top of whatever the body leaves on the stack
      int stack = nesting ? maxStack + 3 : maxStack;
      super.visitMaxs(Math.max(stack, argumentsSize + 8), locals);
    }
  }

  private static final String CELL_TYPE = "[I";
  private static final String THROWABLE = "java/lang/Throwable";

  /** A parameter's type as a stack map frame states it. */
  private static Object frameType(Type t) {
    switch (t.getSort()) {
      case Type.BOOLEAN:
      case Type.CHAR:
      case Type.BYTE:
      case Type.SHORT:
      case Type.INT:
        return Opcodes.INTEGER;
      case Type.FLOAT:
        return Opcodes.FLOAT;
      case Type.LONG:
        return Opcodes.LONG;
      case Type.DOUBLE:
        return Opcodes.DOUBLE;
      case Type.ARRAY:
        return t.getDescriptor();
      default:
        return t.getInternalName();
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
