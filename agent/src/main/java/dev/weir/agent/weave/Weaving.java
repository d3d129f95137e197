package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.http.HttpGate;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.config.AgentArgs;
import dev.weir.agent.control.ConfigPipeline;
import dev.weir.agent.control.LimitSet;
import java.io.File;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * The agent once it weaves: what the management layer needs of the weaving layer, config reload
 * above all. One per JVM. Thread-safe: reloads are serialized.
 */
public final class Weaving {
  private final Instrumentation instrumentation;
  private final WeirTransformer transformer;
  private final NanoClock clock;
  private final String version;
  private volatile AgentArgs arguments;
  private volatile String configPath;
  private boolean reporting;

  Weaving(
      Instrumentation instrumentation,
      WeirTransformer transformer,
      NanoClock clock,
      AgentArgs arguments,
      String version,
      boolean reporting) {
    this.instrumentation = instrumentation;
    this.transformer = transformer;
    this.clock = clock;
    this.arguments = arguments;
    this.configPath = arguments.configPath();
    this.version = version;
    this.reporting = reporting;
  }

  /**
   * The agent's version.
   *
   * @return for example {@code 0.1.0}
   */
  public String version() {
    return version;
  }

  /**
   * The arguments the agent runs with (the latest attach's, after a reload by attach).
   *
   * @return the arguments
   */
  public AgentArgs arguments() {
    return arguments;
  }

  /**
   * Takes the arguments of a later attach as the agent's own (its {@code log}, {@code summary} and
   * {@code watch}; the management layer applies them).
   *
   * @param next the arguments
   */
  public void arguments(AgentArgs next) {
    arguments = next;
  }

  /**
   * The config file.
   *
   * @return its path as given, or null if the agent runs without one
   */
  public String configPath() {
    return configPath;
  }

  /**
   * The methods whose calls the limiter limits now (docs/operations.md, "MBeans", {@code Methods}).
   *
   * @param limiter a limiter
   * @return {@code Class#method(params)} each, sorted
   */
  public List<String> methodsOf(Limiter limiter) {
    return transformer.coverage().methodsOf(limiter);
  }

  /**
   * What the config limit's patterns reached and could not limit (docs/operations.md, "MBeans",
   * {@code Unlimited}).
   *
   * @param limiter a limiter
   * @return {@code PATTERN: METHOD: WHY} each; empty unless the limiter is a config entry's
   */
  public List<String> unlimitedOf(BucketLimiter limiter) {
    ConfigLimits config = transformer.config();
    if (!config.registered().isEntryLimiter(limiter.name(), limiter)) {
      return Collections.<String>emptyList();
    }
    return config.unlimitedOf(
        limiter.name(),
        config.allMatched(limiter.name()) ? null : transformer.loadedIndex()); // hints if needed
  }

  /** What a reload did. */
  public static final class Reloaded {
    /** Whether the file was applied; false: nothing changed. */
    public final boolean applied;

    /** Applied: one line per change (none if the file was as before). Refused: every error. */
    public final List<String> lines;

    Reloaded(boolean applied, List<String> lines) {
      this.applied = applied;
      this.lines = Collections.unmodifiableList(lines);
    }
  }

  /**
   * Re-reads the config file and applies it whole or not at all (docs/operations.md, "Live changes
   * and reloads"): any error (the file's, a key type's, a live change the core refuses) leaves
   * every limit as it was and is returned; a valid file is applied at once, and the loaded classes
   * whose weaving it changes are retransformed.
   *
   * @param path the file to read, which becomes the config file; null for the current one
   * @return what changed, or every error
   */
  public Reloaded reload(String path) {
    String file = path != null ? path : configPath;
    if (file == null) {
      return refused(
          "no config file to reload: the agent was started without config= (attach with"
              + " config=PATH to give one)");
    }
    byte[] content;
    try {
      content = Files.readAllBytes(new File(file).toPath());
    } catch (IOException e) {
      return unreadable(file, e);
    }
    return reload(file, content);
  }

  /**
   * A reload of a file that cannot be read (gone, a directory, a link to nothing): refused as any
   * bad file, every limit left as it was, never "no limits".
   *
   * @param file the file
   * @param problem why it cannot be read
   * @return the refusal, with its one error
   */
  public Reloaded unreadable(String file, IOException problem) {
    return refused(file + ": cannot read the config file (" + problem + ")");
  }

  /**
   * {@link #reload(String)} of content read already (a watch compares the bytes it read).
   *
   * @param file the file
   * @param content its bytes
   * @return what changed, or every error
   */
  public synchronized Reloaded reload(String file, byte[] content) {
    int[] section = CallDepth.enterWeir(); // config limits charge none
    try {
      return reloadOwn(file, content);
    } finally {
      section[0]--;
    }
  }

  private Reloaded reloadOwn(String file, byte[] content) {
    ConfigLimits old = transformer.config();
    ConfigPipeline.Applied applied = ConfigPipeline.reload(file, content, old.registered(), clock);
    if (!applied.applied()) {
      return refused(applied.errors.toArray(new String[0]));
    }
    LimitSet.Reload reload = applied.reload;
    ConfigLimits next = old.next(reload);
    int woven = 0;
    if (reload.patternsChanged && next.hasPatterns() && !transformer.retransforms()) {
      transformer.becomeRetransforming(instrumentation);
    }
    transformer.setConfig(next);
    applied.retirePrevious();
    if (reload.patternsChanged && transformer.retransforms()) {
      woven = transformer.retransformForReload(instrumentation, old);
    }
    woven += ensureServletGate(instrumentation, transformer, true);
    configPath = file;
    if (!reporting && next.registered() != LimitSet.NONE) {
      ConfigReporter.start(transformer);
      reporting = true;
    }
    List<String> lines = new ArrayList<String>(applied.changes);
    AgentLog.info(
        "config reloaded from "
            + file
            + ": "
            + (lines.isEmpty() ? "nothing changed" : String.join("; ", lines))
            + (woven > 0 ? "; " + woven + " loaded classes woven again" : ""));
    return new Reloaded(true, lines);
  }

  static int ensureServletGate(
      Instrumentation instrumentation, WeirTransformer transformer, boolean now) {
    boolean needed =
        HttpGate.hasRules()
            || (HttpGate.answersLimitedMethods()
                && (transformer.config().hasPatterns() || transformer.hasWoven()));
    return needed ? ServletGate.ensure(instrumentation, !now) : 0;
  }

  /**
   * From now on, puts the http gate in place once the first class is woven with a limit (an
   * annotated class loads, say), if {@code http.answerLimitedMethods} is on: the gate's transformer
   * at once, so every class loading after is woven as it loads, and the classes loaded before on a
   * thread of Weir's (the first class is woven inside a class file transformer). A reload that
   * turns {@code http.answerLimitedMethods} on later puts it in place then.
   *
   * @param instrumentation the JVM's instrumentation
   * @param transformer the agent's transformer
   */
  static void ensureServletGateOnFirstLimit(
      final Instrumentation instrumentation, WeirTransformer transformer) {
    transformer.onFirstWoven(
        new Runnable() {
          @Override
          public void run() {
            if (HttpGate.answersLimitedMethods()) {
              ServletGate.ensure(instrumentation, true);
            }
          }
        });
  }

  private static Reloaded refused(String... errors) {
    List<String> lines = new ArrayList<String>();
    for (String error : errors) {
      AgentLog.error(error);
      lines.add(error);
    }
    AgentLog.error("the config file was not applied: every limit stays as it was");
    return new Reloaded(false, lines);
  }

  /**
   * Forgets what weaving noted of classes of collected class loaders, and of limiters dropped.
   *
   * @param loaderIds the numbers of the collected loaders
   * @param limiterIds the ids freed
   */
  public void forget(Set<Integer> loaderIds, Set<Integer> limiterIds) {
    transformer.forget(loaderIds, limiterIds);
  }

  /**
   * Starts noticing when a class of this name loads (one look at the classes loaded already, then a
   * string compare per class load), for {@link #watchedClassLoaded}.
   *
   * @param binaryName the class's binary name, such as {@code org.jboss.logmanager.LogManager}
   */
  public void watchForClass(String binaryName) {
    transformer.watchFor(binaryName.replace('.', '/'));
    for (Class<?> c : instrumentation.getAllLoadedClasses()) {
      if (c.getName().equals(binaryName)) {
        transformer.markSeen();
        return;
      }
    }
  }

  /**
   * Whether the class given to {@link #watchForClass} has loaded.
   *
   * @return true once it has
   */
  public boolean watchedClassLoaded() {
    return transformer.sawWatched();
  }
}
