package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.NanoClock;
import java.util.HashMap;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * Weaves one class file in two passes over its bytes, with the ASM that Byte Buddy carries: the
 * first reads a {@link ClassModel} (skipping code), from which {@link LimitWeaver} plans a {@link
 * LimitPrologue} per limited method; the second copies the class, putting each prologue in front of
 * its method's body. Methods without a prologue are copied as bytes, constant pool included.
 *
 * <p>Nothing else is read or loaded: no other class file, no application class, no type hierarchy.
 * No field or method is added, so retransformation always works, and no stack map frame is computed
 * (the prologue writes its own), so no class is ever looked up for a common supertype. This is Byte
 * Buddy's class decoration without its type descriptions, which cost the agent about 190 ms of
 * start-up in classes to load and initialise before the first class could be woven.
 *
 * <p>Thread-safe.
 */
final class Weaver {
  private final LimitWeaver limits;

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
   * Weaves a class file.
   *
   * @param loader the class's loader, null for the bootstrap loader
   * @param internalName the class's internal name
   * @param classFile the class file as the JVM has it
   * @return the woven class file, or null when no method of the class is limited
   * @throws RuntimeException if the class file cannot be read or written (the caller reports it)
   */
  byte[] weave(ClassLoader loader, String internalName, byte[] classFile) {
    ClassReader reader = OpenedClassReader.of(classFile); // parsed once, read by both passes
    ClassModel type = ClassModel.read(reader);
    Map<String, LimitPrologue> plan = limits.plan(type, loader);
    if (plan.isEmpty()) {
      return null;
    }
    if (AgentLog.debugEnabled()) {
      AgentLog.debug("woven " + type.name);
    }
    return write(reader, plan);
  }

  /**
   * Weaves {@link WarmUp} and throws the result away: loads and compiles, off the application's
   * threads, what the first real class to weave would otherwise pay for. Never throws.
   */
  void warmUp() {
    try {
      byte[] classFile =
          WeirTransformer.classFileOf(
              Weaver.class.getClassLoader(), WarmUp.class.getName().replace('.', '/'));
      if (classFile == null) {
        throw new IllegalStateException("the agent serves no class file of " + WarmUp.class);
      }
      ClassReader reader = OpenedClassReader.of(classFile);
      write(reader, limits.planWarmUp(ClassModel.read(reader)));
    } catch (RuntimeException e) {
      AgentLog.debug("warm-up failed (weaving itself is unaffected): " + e);
    }
  }

  /**
   * Copies the class file with each planned prologue in front of its method.
   *
   * @throws IllegalStateException if a planned method is not in the class file
   */
  private static byte[] write(ClassReader reader, Map<String, LimitPrologue> plan) {
    ClassWriter writer = new ClassWriter(reader, 0); // copies the pool and unchanged methods
    final Map<String, LimitPrologue> pending = new HashMap<String, LimitPrologue>(plan);
    reader.accept(
        new ClassVisitor(OpenedClassReader.ASM_API, writer) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
            LimitPrologue prologue = pending.remove(name + descriptor);
            return prologue == null || mv == null ? mv : prologue.wrap(mv);
          }
        },
        0);
    if (!pending.isEmpty()) { // both passes read the same bytes: this is a bug of the agent's
      throw new IllegalStateException("planned methods not found: " + pending.keySet());
    }
    return writer.toByteArray();
  }
}
