package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.NanoClock;
import java.lang.ref.WeakReference;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.pool.TypePool;

/**
 * Weaves one class file: describes it from its bytes (the agent never loads an application class to
 * decide anything), lets {@link LimitWeaver} add the prologue to its limited methods, and writes
 * the class back by decoration only: no added fields or methods, so retransformation always works,
 * and no method graph, so a signature that names a class that cannot be found (an optional
 * dependency) neither fails nor hides the method.
 *
 * <p>This uses Byte Buddy's type pool and class decoration directly rather than its {@code
 * AgentBuilder}: the same result with about half the classes to load, which is most of the agent's
 * start-up cost once a class must be woven. Thread-safe.
 */
final class Weaver {
  private final ByteBuddy byteBuddy;
  private final LimitWeaver limits;
  private final ClassFileLocator apiLocator;
  private final ClassFileLocator jdkLocator;

  /**
   * Creates the weaver.
   *
   * @param clock the time source of the limiters it creates
   * @param apiLocator reads the {@code dev.weir} API class files (the annotation types, for their
   *     defaults) where a class loader does not serve them as resources: a loader whose parent is
   *     the bootstrap loader finds the classes the agent appended there, but not their bytes. The
   *     JDK's own class files come from the bootstrap loader, for loaders that serve no resources
   *     at all
   * @param config the config file's limits
   */
  Weaver(NanoClock clock, ClassFileLocator apiLocator, ConfigLimits config) {
    // Byte Buddy never needs sun.misc.Unsafe here (nothing is injected); safe mode keeps it from
    // touching it, and from the JDK's warnings about it. Relocation renames this property with
    // the rest of Byte Buddy, so it is the agent's copy alone that reads it.
    if (System.getProperty("net.bytebuddy.safe") == null) {
      System.setProperty("net.bytebuddy.safe", "true");
    }
    this.byteBuddy = new ByteBuddy().with(TypeValidation.DISABLED);
    this.limits = new LimitWeaver(clock, config);
    this.apiLocator = apiLocator;
    this.jdkLocator = ClassFileLocator.ForClassLoader.ofBootLoader();
  }

  /**
   * Weaves a class file.
   *
   * @param loader the class's loader, null for the bootstrap loader
   * @param internalName the class's internal name
   * @param classFile the class file as the JVM has it
   * @return the woven class file, or null when no method of the class is limited
   * @throws RuntimeException if Byte Buddy cannot write the class (the caller reports it)
   */
  byte[] weave(ClassLoader loader, String internalName, byte[] classFile) {
    String name = internalName.replace('/', '.');
    ClassFileLocator locator =
        new ClassFileLocator.Compound(
            ClassFileLocator.Simple.of(name, classFile),
            loader == null ? jdkLocator : new WeakLoaderLocator(loader),
            apiLocator,
            jdkLocator);
    TypePool pool = pool(locator);
    TypeDescription type = pool.describe(name).resolve();
    DynamicType.Builder<?> plain = byteBuddy.decorate(type, locator);
    DynamicType.Builder<?> woven = limits.transform(plain, type, loader);
    if (woven == plain) {
      return null;
    }
    if (AgentLog.debugEnabled()) {
      AgentLog.debug("woven " + name);
    }
    return woven.make(pool).getBytes();
  }

  /**
   * Weaves {@link WarmUp} and throws the result away: loads and compiles, off the application's
   * threads, what the first real class to weave would otherwise pay for. Never throws.
   */
  void warmUp() {
    try {
      ClassFileLocator locator = ClassFileLocator.ForClassLoader.of(Weaver.class.getClassLoader());
      TypePool pool = pool(new ClassFileLocator.Compound(locator, apiLocator, jdkLocator));
      TypeDescription type = pool.describe(WarmUp.class.getName()).resolve();
      WeavePlan.begin();
      limits.warmUp(byteBuddy.decorate(type, locator), type).make(pool).getBytes();
    } catch (RuntimeException e) {
      AgentLog.debug("warm-up failed (weaving itself is unaffected): " + e);
    } finally {
      WeavePlan.end();
    }
  }

  /** A pool for one class: it parses only what weaving asks about, and lives as long as that. */
  private static TypePool pool(ClassFileLocator locator) {
    return new TypePool.Default.WithLazyResolution(
        new TypePool.CacheProvider.Simple(), locator, TypePool.Default.ReaderMode.FAST);
  }

  /** Reads class files through a loader held weakly: a woven class never pins its loader. */
  private static final class WeakLoaderLocator implements ClassFileLocator {
    private final WeakReference<ClassLoader> loader;

    WeakLoaderLocator(ClassLoader loader) {
      this.loader = new WeakReference<ClassLoader>(loader);
    }

    @Override
    public Resolution locate(String name) throws java.io.IOException {
      ClassLoader l = loader.get();
      return l == null
          ? new Resolution.Illegal(name)
          : ClassFileLocator.ForClassLoader.of(l).locate(name);
    }

    @Override
    public void close() {}
  }
}
