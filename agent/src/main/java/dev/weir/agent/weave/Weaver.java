package dev.weir.agent.weave;

import static net.bytebuddy.matcher.ElementMatchers.declaresMethod;
import static net.bytebuddy.matcher.ElementMatchers.isAnnotatedWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.none;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.NanoClock;
import java.lang.instrument.ClassFileTransformer;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Builds the Byte Buddy transformer that weaves limits: no change to the class format (no added
 * fields or methods, so retransformation always works), type descriptions from the class file pool
 * only (the agent never loads an application class to decide anything), and every failure reported
 * as one log line while the class loads unwoven.
 */
final class Weaver {
  private Weaver() {}

  /**
   * Builds the transformer.
   *
   * @param clock the time source of the limiters it creates
   * @param apiLocator reads the {@code dev.weir} API class files (the annotation types, for their
   *     defaults) where a class loader does not serve them as resources: a loader whose parent is
   *     the bootstrap loader finds the classes the agent appended there, but not their bytes. The
   *     JDK's own class files come from the bootstrap loader, for loaders that serve no resources
   *     at all
   * @param config the config file's limits
   * @return a class file transformer; not installed
   */
  static ClassFileTransformer create(
      NanoClock clock, ClassFileLocator apiLocator, final ConfigLimits config) {
    // Byte Buddy never needs sun.misc.Unsafe here (nothing is injected); safe mode keeps it from
    // touching it, and from the JDK's warnings about it. Relocation renames this property with
    // the rest of Byte Buddy, so it is the agent's copy alone that reads it.
    if (System.getProperty("net.bytebuddy.safe") == null) {
      System.setProperty("net.bytebuddy.safe", "true");
    }
    return new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
        .disableClassFormatChanges()
        // advice only: no method graph, so a signature naming a class that cannot be found (an
        // optional dependency) neither fails nor hides the method
        .with(AgentBuilder.TypeStrategy.Default.DECORATE)
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
        .with(AgentBuilder.PoolStrategy.Default.FAST)
        .with(
            AgentBuilder.LocationStrategy.ForClassLoader.WEAK.withFallbackTo(
                apiLocator, ClassFileLocator.ForClassLoader.ofBootLoader()))
        .with(new ErrorListener())
        .ignore(none())
        .type(
            declaresMethod(
                    isAnnotatedWith(named(LimitWeaver.TOKEN_BUCKET))
                        .or(isAnnotatedWith(named(LimitWeaver.LEAKY_BUCKET))))
                .or(
                    new ElementMatcher.Junction.AbstractBase<TypeDescription>() {
                      @Override
                      public boolean matches(TypeDescription type) {
                        return config.mayMatchType(type.getName());
                      }
                    }))
        .transform(new LimitWeaver(clock, config))
        .makeRaw();
  }

  /** Reports each class that could not be woven, once, by name. */
  private static final class ErrorListener extends AgentBuilder.Listener.Adapter {
    @Override
    public void onTransformation(
        TypeDescription type,
        ClassLoader loader,
        JavaModule module,
        boolean loaded,
        DynamicType dynamicType) {
      if (AgentLog.debugEnabled()) {
        AgentLog.debug("woven " + type.getName());
      }
    }

    @Override
    public void onError(
        String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable error) {
      WeavePlan.markFailed();
      AgentLog.error(
          "could not weave " + typeName + " (it loads unwoven, its limits are off): " + error);
    }
  }
}
