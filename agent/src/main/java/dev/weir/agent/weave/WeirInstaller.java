package dev.weir.agent.weave;

import dev.weir.agent.backend.BackendSettings;
import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.http.HttpGate;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.config.AgentArgs;
import dev.weir.agent.config.ConfigFile;
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
    final NanoClock clock = NanoClock.SYSTEM;
    ConfigLimits config = ConfigLimits.NONE;
    String limitsLoaded = "no config file";
    if (arguments.configPath() != null) {
      ConfigFile file = ConfigFile.read(arguments.configPath());
      List<String> errors = file.errors();
      if (errors.isEmpty()) { // keys of types that print as their identity, where a pattern says
        errors = KeyTypes.configErrors(file.limits(), ClassLoader.getSystemClassLoader());
      }
      if (!errors.isEmpty()) {
        for (String error : errors) {
          AgentLog.fatal(error);
        }
        if (premain) {
          AgentLog.fatal(
              arguments.configPath()
                  + ": "
                  + errors.size()
                  + " error(s); stopping the JVM before main (exit code 1)");
          System.exit(1);
        }
        AgentLog.error(arguments.configPath() + ": the attach does nothing");
        return null;
      }
      for (String warning : file.warnings()) {
        AgentLog.warn(warning);
      }
      config = ConfigLimits.register(file.limits(), clock, BackendSettings.of(file));
      HttpGate.setMaxBlockedThreads(file.maxBlockedThreads());
      HttpGate.install(
          config.httpRules(),
          file.trustedProxies(),
          file.httpStatus(),
          file.answerLimitedMethods(),
          file.ipv6PrefixLength());
      limitsLoaded =
          file.limits().size()
              + (file.limits().size() == 1 ? " limit from " : " limits from ")
              + arguments.configPath()
              + (file.limits().isEmpty() ? "" : " (" + String.join(", ", config.names()) + ")");
    }
    final ConfigLimits limits = config;
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
    // Retransformation is needed to weave classes loaded already: on attach, and for config
    // patterns (JDK classes). Without it, start-up is cheaper, and the JVM still keeps our weaving
    // when another agent retransforms a class (it restarts from the bytes we returned).
    if (limits.hasPatterns()) {
      // A pattern will most likely match, perhaps a JDK class that the weaver itself loads:
      // build and warm up the weaver before the transformer is installed, so that weaving never
      // re-enters the weaver's initialisation nor waits for it while holding a class-loading lock.
      // JDK classes loaded meanwhile are retransformed below.
      transformer.prepareNow();
    }
    boolean retransforming = !premain || limits.hasPatterns();
    instrumentation.addTransformer(transformer, retransforming);
    transformer.installed(retransforming, instrumentation);
    if (arguments.configPath() != null) {
      ConfigReporter.start(transformer);
    }
    if (instrumentation.isNativeMethodPrefixSupported()) {
      // a limited native method is renamed $weir$NAME behind a wrapper; the JVM links it still
      instrumentation.setNativeMethodPrefix(transformer, Weaver.MOVED_PREFIX);
      transformer.nativePrefixSet();
    }
    // the servlet gate: with http entries or method patterns, now (at start-up the loaded classes,
    // the JDK's, are looked over on a thread of Weir's); otherwise once a class is woven with a
    // limit
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
    } else if (limits.hasPatterns()) {
      transformer.retransformLoaded(instrumentation, false); // JDK classes loaded already
    }
    Weaving.ensureServletGateOnFirstLimit(instrumentation, transformer);
    AgentLog.info(
        "weir "
            + version
            + " started: "
            + limitsLoaded
            + "; @TokenBucket and @LeakyBucket methods are limited as their classes load"
            + " (log=debug names each)"
            + retransformed);
    return new Weaving(
        instrumentation, transformer, clock, arguments, version, arguments.configPath() != null);
  }

  /**
   * Arguments with errors decide nothing, {@code enabled=false} included: at start-up they stop the
   * JVM before {@code main}, as a bad config file does (whatever the log level); an attach does
   * nothing.
   */
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
