package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.BucketLimiter;
import dev.weir.agent.bootstrap.DryRunLimiter;
import dev.weir.agent.bootstrap.Limiter;
import dev.weir.agent.bootstrap.LimiterRegistry;
import dev.weir.agent.bootstrap.NanoClock;
import dev.weir.agent.config.ConfigLimit;
import dev.weir.agent.config.MethodPattern;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The config file's limits, registered as limiters when the agent starts: by name (an entry without
 * {@code methods} overrides the annotated limiter of that name) and by method pattern. Immutable
 * after construction, but for the set of names that annotations have claimed.
 */
final class ConfigLimits {
  static final ConfigLimits NONE = new ConfigLimits();

  private final Map<String, Integer> idsByName = new LinkedHashMap<String, Integer>();
  private final List<Entry> entries = new ArrayList<Entry>();
  private final List<DryRunLimiter> dryRuns = new ArrayList<DryRunLimiter>();
  private final Set<String> claimed =
      Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());

  private ConfigLimits() {}

  /**
   * Registers a limiter for each config limit.
   *
   * @param limits the config file's limits
   * @param clock the time source
   * @return the registered limits
   */
  static ConfigLimits register(List<ConfigLimit> limits, NanoClock clock) {
    ConfigLimits config = new ConfigLimits();
    for (ConfigLimit limit : limits) {
      Limiter limiter = limit.spec().newLimiter(limit.name(), limit.origin(), clock);
      if (limit.dryRun()) {
        DryRunLimiter dryRun = new DryRunLimiter((BucketLimiter) limiter);
        config.dryRuns.add(dryRun);
        limiter = dryRun;
      }
      int id = LimiterRegistry.register("name " + limit.name(), limiter);
      config.idsByName.put(limit.name(), id);
      for (MethodPattern pattern : limit.patterns()) {
        config.entries.add(new Entry(pattern, limit.name(), id));
      }
      if (AgentLog.debugEnabled()) {
        AgentLog.debug(
            "config limit '"
                + limit.name()
                + "' from "
                + limit.origin()
                + ": "
                + LimiterRegistry.limiter(id).settings()
                + (limit.patterns().isEmpty() ? " (overrides the annotated limiter)" : ""));
      }
    }
    return config;
  }

  /** The id and name of the config limit overriding the annotated limiter {@code name}, if any. */
  Integer overrideId(String name) {
    Integer id = idsByName.get(name);
    if (id != null) {
      claimed.add(name);
    }
    return id;
  }

  /** The first pattern entry matching the method, or null. */
  Entry match(String typeName, String methodName, List<String> parameterTypes) {
    for (Entry entry : entries) {
      if (entry.pattern.matchesTypeName(typeName)
          && entry.pattern.matchesMethod(methodName, parameterTypes)) {
        return entry;
      }
    }
    return null;
  }

  /** Whether a class of this binary name may have methods a pattern matches (a cheap filter). */
  boolean mayMatchType(String binaryName) {
    for (Entry entry : entries) {
      if (entry.pattern.matchesTypeName(binaryName)) {
        return true;
      }
    }
    return false;
  }

  boolean hasPatterns() {
    return !entries.isEmpty();
  }

  List<String> names() {
    return new ArrayList<String>(idsByName.keySet());
  }

  List<DryRunLimiter> dryRuns() {
    return dryRuns;
  }

  /** A pattern and the limiter it binds matched methods to. */
  static final class Entry {
    final MethodPattern pattern;
    final String name;
    final int id;

    Entry(MethodPattern pattern, String name, int id) {
      this.pattern = pattern;
      this.name = name;
      this.id = id;
    }
  }
}
