package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.control.ClassFiles;
import dev.weir.agent.weave.ClassModel.MethodModel;
import dev.weir.agent.weave.LimitWeaver.AddedOverride;
import dev.weir.agent.weave.LimitWeaver.Placement;
import dev.weir.agent.weave.LimitWeaver.Plan;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.Attribute;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassTooLargeException;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodTooLargeException;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.TypePath;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * Weaves one class file in two passes over its bytes, with the ASM that Byte Buddy carries: the
 * first reads a {@link ClassModel} (skipping code), from which {@link LimitWeaver} plans a {@link
 * LimitPrologue} per limited method; the second copies the class, putting each prologue in front of
 * its method's body. Methods without a prologue are copied as bytes, constant pool included.
 *
 * <p>Nothing else is read or loaded: no other class file, no application class, no type hierarchy.
 * No stack map frame is computed (the prologue writes its own), so no class is ever looked up for a
 * common supertype. This is Byte Buddy's class decoration without its type descriptions, which cost
 * the agent about 190 ms of start-up in classes to load and initialise before the first class could
 * be woven.
 *
 * <h2>Every method is limited, or fails closed</h2>
 *
 * <p>A method whose code would pass the JVM's 65,535-byte limit with the prologue in it cannot take
 * it in place, and ASM then refuses the whole class. Rather than lose every limit of the class, the
 * weaver writes it again with that method <em>moved</em>: its body goes to a new private synthetic
 * method named {@link #MOVED_PREFIX} + its name, and a small wrapper keeps the name, the flags and
 * the annotations, runs the prologue and calls the body. A native method is limited the same way:
 * renamed with the prefix, which the agent registers as the JVM's native method prefix, so the JVM
 * still links it to its native code. Only a class that is loading may gain a method: in a class
 * loaded already (retransformed on attach), or in a constructor (whose body must stay in it), a
 * method that cannot be moved <em>fails closed</em>: its code becomes a throw of {@link
 * IllegalStateException} naming it and why. A class whose methods moved when it loaded is moved the
 * same way again when it is retransformed, so its shape never changes.
 *
 * <p>Thread-safe.
 */
final class Weaver {
  /**
   * The prefix of a moved body's name, and the native method prefix the agent registers: {@code
   * $weir$send} holds the body of {@code send}.
   */
  static final String MOVED_PREFIX = "$weir$";

  private final LimitWeaver limits;

  /** Whether the JVM resolves natives renamed with {@link #MOVED_PREFIX}: set once it does. */
  private volatile boolean nativePrefix;

  /**
   * For each class whose methods moved when it loaded, as {@code LOADER_ID:internal/Name}: their
   * keys, which must move again whenever the class is retransformed.
   */
  private final ConcurrentHashMap<String, Set<String>> movedAtLoad =
      new ConcurrentHashMap<String, Set<String>>();

  /**
   * For each class that gained overrides when it loaded (inherited implementations of a {@code
   * Type+} pattern's subtype), as {@code LOADER_ID:internal/Name}: those methods, which it must
   * keep whenever it is retransformed (with the limit, or calling {@code super} alone).
   */
  private final ConcurrentHashMap<String, Map<String, MethodModel>> overriddenAtLoad =
      new ConcurrentHashMap<String, Map<String, MethodModel>>();

  /** What each limiter limits now, method by method. */
  private final Coverage coverage = new Coverage();

  /**
   * Creates the weaver.
   *
   * @param clock the time source of the limiters it creates
   * @param config the config file's limits
   */
  Weaver(NanoClock clock, ConfigLimits config) {
    this.limits = new LimitWeaver(clock, config);
  }

  /**
   * Tells the weaver which classes may be loaded already (the JVM's instrumentation knows).
   *
   * @param names the answer
   */
  void setLoadedNames(LoadedNames names) {
    limits.setLoadedNames(names);
  }

  /**
   * Replaces the config file's limits (a reload).
   *
   * @param config the new limits
   */
  void setConfig(ConfigLimits config) {
    limits.setConfig(config);
  }

  /**
   * Forgets what was noted of classes of collected class loaders, and of limiters dropped.
   *
   * @param loaderIds the numbers of the collected loaders
   * @param limiterIds the ids freed
   */
  void forget(Set<Integer> loaderIds, Set<Integer> limiterIds) {
    forgetLoaders(movedAtLoad.keySet(), loaderIds);
    forgetLoaders(overriddenAtLoad.keySet(), loaderIds);
    coverage.forget(loaderIds);
    limits.forget(limiterIds);
  }

  private static void forgetLoaders(Set<String> classKeys, Set<Integer> loaderIds) {
    for (java.util.Iterator<String> i = classKeys.iterator(); i.hasNext(); ) {
      String key = i.next();
      if (loaderIds.contains(Integer.parseInt(key.substring(0, key.indexOf(':'))))) {
        i.remove();
      }
    }
  }

  /**
   * Whether a class gained methods when it loaded (moved bodies, overrides), which it keeps.
   *
   * @param loader the class's loader, null for the bootstrap loader
   * @param internalName the class
   * @return true if its shape changed when it loaded
   */
  boolean changedShapeAtLoad(ClassLoader loader, String internalName) {
    if (movedAtLoad.isEmpty() && overriddenAtLoad.isEmpty()) {
      return false;
    }
    String classKey = LimiterRegistry.loaderId(loader) + ":" + internalName;
    return movedAtLoad.containsKey(classKey) || overriddenAtLoad.containsKey(classKey);
  }

  /**
   * What each limiter limits now.
   *
   * @return the record, kept as classes are woven
   */
  Coverage coverage() {
    return coverage;
  }

  /** The JVM now resolves native methods renamed with {@link #MOVED_PREFIX}. */
  void nativePrefixSet() {
    nativePrefix = true;
  }

  /**
   * Weaves a class file.
   *
   * @param loader the class's loader, null for the bootstrap loader
   * @param internalName the class's internal name
   * @param classFile the class file as the JVM has it
   * @param redefining true if the class is loaded already (retransformation): it can gain no method
   * @return the woven class file, or null when no method of the class is limited
   * @throws RuntimeException if the class file cannot be read or written (the caller reports it)
   */
  byte[] weave(ClassLoader loader, String internalName, byte[] classFile, boolean redefining) {
    ClassReader reader = OpenedClassReader.of(classFile); // parsed once, read by both passes
    ClassModel type = ClassModel.read(reader);
    String classKey = LimiterRegistry.loaderId(loader) + ":" + internalName;
    Set<String> earlier = redefining ? movedAtLoad.get(classKey) : null;
    Map<String, MethodModel> overridden = redefining ? overriddenAtLoad.get(classKey) : null;
    Placement placement =
        new Placement(
            redefining,
            earlier == null ? Collections.<String>emptySet() : earlier,
            overridden == null ? Collections.<String, MethodModel>emptyMap() : overridden,
            nativePrefix);
    Plan plan = limits.plan(type, loader, placement);
    if (overridden != null) {
      for (Map.Entry<String, MethodModel> e : overridden.entrySet()) {
        if (!plan.overrides.containsKey(e.getKey())) { // no longer limited: it only calls super
          plan.overrides.put(e.getKey(), new AddedOverride(e.getValue(), null));
        }
      }
    }
    if (earlier != null) {
      for (String key : earlier) {
        if (plan.prologues.containsKey(key)) {
          plan.moved.add(key); // the same shape as when it loaded
        } else {
          plan.movedUnlimited.add(key); // no limit any longer, and the same shape
        }
      }
    }
    if (plan.isEmpty()) {
      if (redefining) {
        coverage.record(loader, internalName, plan.covered, true);
      }
      return null;
    }
    if (AgentLog.debugEnabled()) {
      AgentLog.debug("woven " + type.name);
    }
    byte[] woven;
    try {
      woven = write(reader, plan, placement);
    } catch (ClassTooLargeException e) {
      throw new LimitsNotWoven(
          "its constant pool has no room left for the constants of its limits", e);
    } catch (RuntimeException e) {
      throw new LimitsNotWoven("its limits could not be woven (" + e + ")", e);
    }
    if (!redefining && !plan.moved.isEmpty()) {
      movedAtLoad.put(classKey, Collections.unmodifiableSet(new HashSet<String>(plan.moved)));
    }
    if (!redefining && !plan.overrides.isEmpty()) {
      Map<String, MethodModel> added = new HashMap<String, MethodModel>();
      for (Map.Entry<String, AddedOverride> e : plan.overrides.entrySet()) {
        added.put(e.getKey(), e.getValue().method);
      }
      overriddenAtLoad.put(classKey, Collections.unmodifiableMap(added));
    }
    coverage.record(loader, internalName, plan.covered, redefining);
    return woven;
  }

  /**
   * Weaves {@link WarmUp} and throws the result away: loads and compiles, off the application's
   * threads, what the first real class to weave would otherwise pay for. Never throws.
   */
  void warmUp() {
    try {
      byte[] classFile =
          ClassFiles.read(Weaver.class.getClassLoader(), WarmUp.class.getName().replace('.', '/'));
      if (classFile == null) {
        throw new IllegalStateException("the agent serves no class file of " + WarmUp.class);
      }
      ClassReader reader = OpenedClassReader.of(classFile);
      write(reader, limits.planWarmUp(ClassModel.read(reader)), Placement.AT_LOAD);
    } catch (RuntimeException e) {
      AgentLog.debug("warm-up failed (weaving itself is unaffected): " + e);
    }
  }

  /**
   * Writes the class as planned; a method too large for its prologue is then moved, or fails closed
   * where it cannot move, and the class is written again.
   */
  private static byte[] write(ClassReader reader, Plan plan, Placement placement) {
    Map<String, Integer> maxLocals = bodyMaxLocals(reader, plan);
    for (Map.Entry<String, Integer> e : maxLocals.entrySet()) {
      if (e.getValue() > MAX_LOCALS - NESTING_LOCALS) {
        cannotTakeInPlace(
            plan,
            placement,
            e.getKey(),
            "its code uses "
                + e.getValue()
                + " local variable slots, and the limit needs "
                + NESTING_LOCALS
                + " more, beyond the JVM's limit of "
                + MAX_LOCALS);
      }
    }
    boolean freshPool = false;
    for (int attempt = 0; ; attempt++) {
      try {
        return writeOnce(reader, plan, maxLocals, freshPool);
      } catch (MethodTooLargeException e) {
        String key = e.getMethodName() + e.getDescriptor();
        if (!plan.prologues.containsKey(key)
            || plan.moved.contains(key)
            || plan.failClosed.containsKey(key)
            || attempt > plan.prologues.size()) {
          throw e; // not a prologue's doing: this is a bug of the agent's
        }
        cannotTakeInPlace(
            plan,
            placement,
            key,
            "with the limit woven in, its code would be "
                + e.getCodeSize()
                + " bytes, beyond the JVM's limit of 65535");
      } catch (ClassTooLargeException e) {
        if (freshPool) {
          throw e;
        }
        freshPool = true; // the copied pool holds constants no method uses any longer
      }
    }
  }

  /** The most local variable slots a method may have. */
  private static final int MAX_LOCALS = 65535;

  /** The local variable slots a nesting prologue adds after the body's own: the cell, a long. */
  private static final int NESTING_LOCALS = 3;

  /**
   * A method that cannot take its prologue in place: moves behind a wrapper, or fails closed where
   * it cannot move (a constructor, or a class that can gain no method). One log line either way.
   */
  private static void cannotTakeInPlace(Plan plan, Placement placement, String key, String why) {
    LimitPrologue prologue = plan.prologues.get(key);
    if (placement.canMove(key) && !prologue.method().isConstructor()) {
      plan.moved.add(key);
      AgentLog.warn(
          prologue.origin()
              + ": "
              + why
              + "; it is limited through a wrapper instead (its body moved to "
              + MOVED_PREFIX
              + prologue.method().name
              + ")");
      return;
    }
    plan.failClosed(
        key,
        prologue.origin(),
        why
            + (prologue.method().isConstructor()
                ? ", and a constructor's body cannot move to a method of its own"
                : ", and a class loaded before the agent started cannot gain the method its body"
                    + " would move to"));
  }

  /**
   * Copies the class file with each planned prologue in front of its method, or around its moved
   * body.
   *
   * @param maxLocals the {@code max_locals} of the methods whose nesting prologue needs them
   * @param freshPool true to build a new constant pool rather than copy the class file's
   * @throws IllegalStateException if a planned method is not in the class file
   */
  private static byte[] writeOnce(
      ClassReader reader, Plan plan, Map<String, Integer> maxLocals, boolean freshPool) {
    // copies the pool, and unchanged methods as bytes
    ClassWriter writer = freshPool ? new ClassWriter(0) : new ClassWriter(reader, 0);
    PlannedCopy copy = new PlannedCopy(writer, reader, plan, maxLocals);
    reader.accept(copy, 0);
    if (!copy.pending.isEmpty()) { // both passes read the same bytes: this is a bug of the agent's
      throw new IllegalStateException("planned methods not found: " + copy.pending.keySet());
    }
    return writer.toByteArray();
  }

  /**
   * The second pass: copies a class as its plan says, each method in the plan with its prologue
   * written in place, moved behind a wrapper, or failing closed; the planned overrides added at the
   * end. One copy per {@link #writeOnce}, on one thread.
   */
  private static final class PlannedCopy extends ClassVisitor {
    private final Plan plan;
    private final Map<String, Integer> maxLocals;
    private final String superName;
    private final String owner;
    private final boolean ownerIsInterface;

    /** The planned prologues whose method has not been met yet. */
    final Map<String, LimitPrologue> pending;

    PlannedCopy(ClassWriter writer, ClassReader reader, Plan plan, Map<String, Integer> maxLocals) {
      super(OpenedClassReader.ASM_API, writer);
      this.plan = plan;
      this.maxLocals = maxLocals;
      this.superName = reader.getSuperName();
      this.owner = reader.getClassName();
      this.ownerIsInterface = (reader.getAccess() & Opcodes.ACC_INTERFACE) != 0;
      this.pending = new HashMap<String, LimitPrologue>(plan.prologues);
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      String key = name + descriptor;
      LimitPrologue prologue = pending.remove(key);
      if (prologue == null && plan.movedUnlimited.contains(key)) {
        MethodVisitor wrapper = withCode(access, name, descriptor, signature, exceptions);
        MethodVisitor body = movedBody(access, name, descriptor, signature, exceptions);
        return new MovedUnlimited(
            wrapper, body, owner, ownerIsInterface, new MethodModel(access, name, descriptor));
      }
      if (prologue == null) {
        return super.visitMethod(access, name, descriptor, signature, exceptions);
      }
      String closed = plan.failClosed.get(key);
      if (closed != null) {
        MethodVisitor mv = withCode(access, name, descriptor, signature, exceptions);
        return new FailClosed(mv, prologue, closed);
      }
      if (plan.moved.contains(key)) {
        MethodVisitor wrapper = withCode(access, name, descriptor, signature, exceptions);
        MethodVisitor body = movedBody(access, name, descriptor, signature, exceptions);
        return new Moved(wrapper, body, prologue);
      }
      MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
      Integer bodyMaxLocals = maxLocals.get(key);
      return prologue.wrap(mv, bodyMaxLocals == null ? 0 : bodyMaxLocals);
    }

    /** The method under its own name, native no longer: its code is written here. */
    private MethodVisitor withCode(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      return super.visitMethod(
          access & ~Opcodes.ACC_NATIVE, name, descriptor, signature, exceptions);
    }

    /** The private method a moved method's body goes to, named {@link #MOVED_PREFIX} + its name. */
    private MethodVisitor movedBody(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      return super.visitMethod(
          movedAccess(access), MOVED_PREFIX + name, descriptor, signature, exceptions);
    }

    @Override
    public void visitEnd() {
      for (AddedOverride added : plan.overrides.values()) {
        MethodModel m = added.method;
        MethodVisitor mv =
            super.visitMethod(m.access, m.name, m.descriptor, m.signature, m.exceptions);
        if (added.prologue != null) {
          added.prologue.writeOverride(mv, superName);
        } else {
          LimitPrologue.writePlainOverride(mv, m, superName);
        }
        mv.visitEnd();
      }
      super.visitEnd();
    }
  }

  /**
   * A class whose limits could not be woven at all (its constant pool is full, say): it must not
   * load with them off, so the transformer makes it fail to load.
   */
  static final class LimitsNotWoven extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LimitsNotWoven(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** A moved body's access: private and synthetic, otherwise as the method was. */
  private static int movedAccess(int access) {
    int kept =
        access
            & ~(Opcodes.ACC_PUBLIC
                | Opcodes.ACC_PROTECTED
                | Opcodes.ACC_SYNCHRONIZED // the wrapper holds the monitor
                | Opcodes.ACC_VARARGS);
    return kept | Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC;
  }

  /**
   * The {@code max_locals} of each method whose prologue keeps a local after the body's own (a
   * nesting prologue woven in place), read from its code.
   */
  private static Map<String, Integer> bodyMaxLocals(ClassReader reader, Plan plan) {
    final Set<String> wanted = new HashSet<String>();
    for (Map.Entry<String, LimitPrologue> e : plan.prologues.entrySet()) {
      String key = e.getKey();
      if (e.getValue().nesting()
          && !plan.moved.contains(key)
          && !plan.failClosed.containsKey(key)) {
        wanted.add(key);
      }
    }
    final Map<String, Integer> found = new HashMap<String, Integer>();
    if (wanted.isEmpty()) {
      return found;
    }
    reader.accept(
        new ClassVisitor(OpenedClassReader.ASM_API) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String descriptor, String signature, String[] exceptions) {
            final String key = name + descriptor;
            if (!wanted.contains(key)) {
              return null; // its code is not even read
            }
            return new MethodVisitor(OpenedClassReader.ASM_API) {
              @Override
              public void visitMaxs(int maxStack, int maxLocals) {
                found.put(key, maxLocals);
              }
            };
          }
        },
        ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return found;
  }

  /**
   * Sends what describes a method (annotations, parameter names, attributes) to one visitor and its
   * code to another (or nowhere); subclasses write the described method's code at the end.
   */
  private abstract static class Split extends MethodVisitor {
    final MethodVisitor described;

    Split(MethodVisitor described, MethodVisitor code) {
      super(OpenedClassReader.ASM_API, code);
      this.described = described;
    }

    @Override
    public void visitParameter(String name, int access) {
      described.visitParameter(name, access);
    }

    @Override
    public AnnotationVisitor visitAnnotationDefault() {
      return described.visitAnnotationDefault();
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      return described.visitAnnotation(descriptor, visible);
    }

    @Override
    public AnnotationVisitor visitTypeAnnotation(
        int typeRef, TypePath typePath, String descriptor, boolean visible) {
      return described.visitTypeAnnotation(typeRef, typePath, descriptor, visible);
    }

    @Override
    public void visitAnnotableParameterCount(int parameterCount, boolean visible) {
      described.visitAnnotableParameterCount(parameterCount, visible);
    }

    @Override
    public AnnotationVisitor visitParameterAnnotation(
        int parameter, String descriptor, boolean visible) {
      return described.visitParameterAnnotation(parameter, descriptor, visible);
    }

    @Override
    public void visitAttribute(Attribute attribute) {
      described.visitAttribute(attribute);
    }
  }

  /**
   * A moved method: the wrapper keeps its name and what describes it, the body takes its code; the
   * wrapper's code is written at the end.
   */
  private static final class Moved extends Split {
    private final LimitPrologue prologue;

    Moved(MethodVisitor wrapper, MethodVisitor body, LimitPrologue prologue) {
      super(wrapper, body);
      this.prologue = prologue;
    }

    @Override
    public void visitEnd() {
      super.visitEnd(); // the body
      prologue.writeWrapper(described, MOVED_PREFIX + prologue.method().name);
      described.visitEnd();
    }
  }

  /** A method moved when its class loaded, and no longer limited: the wrapper calls the body. */
  private static final class MovedUnlimited extends Split {
    private final String owner;
    private final boolean ownerIsInterface;
    private final MethodModel method;

    MovedUnlimited(
        MethodVisitor wrapper,
        MethodVisitor body,
        String owner,
        boolean ownerIsInterface,
        MethodModel method) {
      super(wrapper, body);
      this.owner = owner;
      this.ownerIsInterface = ownerIsInterface;
      this.method = method;
    }

    @Override
    public void visitEnd() {
      super.visitEnd(); // the body
      LimitPrologue.writePlainWrapper(described, owner, ownerIsInterface, method);
      described.visitEnd();
    }
  }

  /** A method that fails closed: keeps what describes it, drops its code, writes a throw. */
  private static final class FailClosed extends Split {
    private final LimitPrologue prologue;
    private final String message;

    FailClosed(MethodVisitor method, LimitPrologue prologue, String message) {
      super(method, null); // its code is dropped
      this.prologue = prologue;
      this.message = message;
    }

    @Override
    public void visitEnd() {
      LimitPrologue.writeFailClosed(described, prologue.method().argumentsSize(), message);
      described.visitEnd();
    }
  }
}
