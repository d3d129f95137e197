package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.config.AgentArgs;
import dev.weir.agent.control.ConfigPipeline;
import dev.weir.agent.control.LimitSet;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Starts the agent inside its own class loader: reads the arguments (any error stops the JVM at
 * start-up, or refuses the attach), honours the kill switch, and installs the {@link
 * WeirTransformer}. The weaver (and the ASM it writes with) is not loaded here; the transformer
 * loads it when the first class that mentions a limit appears.
 */
public final class WeirInstaller {
  private WeirInstaller() {}

  /**
   * Installs the agent. Called by the bootstrap initializer, reflectively, until a call returns
   * true.
   *
   * @param args the agent argument string, may be null
   * @param instrumentation the JVM's instrumentation
   * @param premain true at JVM start ({@code -javaagent}), false on attach
   * @param version the agent's version, for the start line
   * @return what now weaves; null if the agent is disabled or refused to start
   */
  public static Weaving install(
      String args, Instrumentation instrumentation, boolean premain, String version) {
    int[] section = CallDepth.enterWeir(); // config limits never charge the agent's start
    try {
      return installOwn(args, instrumentation, premain, version);
    } finally {
      section[0]--;
    }
  }

  private static Weaving installOwn(
      String args, Instrumentation instrumentation, boolean premain, String version) {
    AgentArgs arguments = AgentArgs.parse(args, System.getProperties());
    if (!arguments.errors().isEmpty()) {
      refuse(arguments.errors(), premain); // before anything is set: an attach leaves all as it was
      return null;
    }
    AgentLog.setLevel(arguments.logLevel());
    BucketLimiter.setMaxKeys(arguments.maxKeys());
    if (!arguments.enabled()) {
      AgentLog.info("weir " + version + " is disabled (enabled=false): nothing is woven");
      return null;
    }
    NanoClock clock = NanoClock.SYSTEM;
    String path = arguments.configPath();
    ConfigPipeline.Applied applied = null;
    if (path != null) {
      applied = ConfigPipeline.start(path, clock);
      if (!applied.applied()) {
        refuseConfig(path, applied.errors, premain);
        return null;
      }
    }
    ConfigLimits limits = applied == null ? ConfigLimits.NONE : ConfigLimits.of(applied.limits);
    WeirTransformer transformer = transformer(instrumentation, clock, limits, premain);
    String retransformed = weaveLoaded(instrumentation, transformer, premain);
    AgentLog.info(
        "weir "
            + version
            + " started: "
            + (applied == null ? "no config file" : loaded(path, applied.limits))
            + "; @TokenBucket and @LeakyBucket methods are limited as their classes load"
            + " (log=debug names each)"
            + retransformed);
    return new Weaving(instrumentation, transformer, clock, arguments, version, path != null);
  }

  /**
   * The agent's start line's account of the config file: {@code 2 limits from weir.yaml (a, b)}.
   */
  private static String loaded(String path, LimitSet limits) {
    List<String> names = limits.names();
    return names.size()
        + (names.size() == 1 ? " limit from " : " limits from ")
        + path
        + (names.isEmpty() ? "" : " (" + String.join(", ", names) + ")");
  }

  /**
   * Makes the transformer and adds it to the JVM, with what it needs before the first class it
   * sees: retransformation when something loaded may need weaving, the native method prefix, the
   * config reports.
   */
  private static WeirTransformer transformer(
      Instrumentation instrumentation,
      final NanoClock clock,
      final ConfigLimits limits,
      boolean premain) {
    WeirTransformer transformer =
        new WeirTransformer(
            new Callable<Weaver>() {
              @Override
              public Weaver call() {
                return new Weaver(clock, limits);
              }
            },
            limits,
            ModuleEdges.create(instrumentation));
    if (limits.hasPatterns()) {
      transformer.prepareNow();
    }
    boolean retransforming = !premain || limits.hasPatterns();
    instrumentation.addTransformer(transformer, retransforming);
    transformer.installed(retransforming, instrumentation);
    if (limits != ConfigLimits.NONE) {
      ConfigReporter.start(transformer);
    }
    if (instrumentation.isNativeMethodPrefixSupported()) {
      instrumentation.setNativeMethodPrefix(transformer, Weaver.MOVED_PREFIX);
      transformer.nativePrefixSet();
    }
    return transformer;
  }

  /**
   * Weaves what loaded before the agent: at an attach every loaded class the limits name (and the
   * servlet gate, for a JVM that may serve requests already); before {@code main}, the JDK classes
   * that patterns name.
   *
   * @return the start line's account of it: empty, or {@code "; N loaded classes woven"}
   */
  private static String weaveLoaded(
      Instrumentation instrumentation, WeirTransformer transformer, boolean premain) {
    if (!premain) {
      transformer.servletApiMayBeLoaded(); // a running JVM: it may serve requests already
    }
    int servlets = Weaving.ensureServletGate(instrumentation, transformer, !premain);
    String retransformed = "";
    if (!premain) {
      int classes = transformer.retransformLoaded(instrumentation, true);
      servlets +=
          Weaving.ensureServletGate(instrumentation, transformer, true); // limits just woven
      retransformed = "; " + (classes + servlets) + " loaded classes woven";
    } else if (transformer.config().hasPatterns()) {
      transformer.retransformLoaded(instrumentation, false); // JDK classes loaded already
    }
    Weaving.ensureServletGateOnFirstLimit(instrumentation, transformer);
    return retransformed;
  }

  private static void refuseConfig(String path, List<String> errors, boolean premain) {
    for (String error : errors) {
      AgentLog.fatal(error);
    }
    if (premain) {
      AgentLog.fatal(
          path + ": " + errors.size() + " error(s); stopping the JVM before main (exit code 1)");
      System.exit(1);
    }
    AgentLog.error(path + ": the attach does nothing");
  }

  private static void refuse(List<String> errors, boolean premain) {
    if (premain) {
      for (String error : errors) {
        AgentLog.fatal(error);
      }
      AgentLog.fatal(
          "agent arguments: "
              + errors.size()
              + " error(s); stopping the JVM before main (exit code 1)");
      System.exit(1);
    }
    for (String error : errors) {
      AgentLog.error(error);
    }
    AgentLog.error("agent arguments: " + errors.size() + " error(s); the attach does nothing");
  }
}
