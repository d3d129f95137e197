package dev.weir.agent.config;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.KeyedBuckets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The agent's arguments: {@code -javaagent:weir-agent.jar=key=value,key=value}, each key also
 * readable as a {@code -Dweir.KEY} system property; the agent argument wins.
 *
 * <ul>
 *   <li>{@code config=PATH}: the config file;
 *   <li>{@code log=info|debug|off}: default {@code info};
 *   <li>{@code enabled=false}: the kill switch, nothing is woven ({@code no} and {@code off} also
 *       switch it off);
 *   <li>{@code maxKeys=N}: the most keys one per-key limiter holds, default 100,000;
 *   <li>{@code watch=true}: re-read the config file whenever it changes;
 *   <li>{@code prometheus=[HOST:]PORT}: serve metrics at {@code /metrics} (all interfaces unless a
 *       host is given);
 *   <li>{@code summary=SECONDS}: one log line per active limiter every SECONDS (off by default);
 *   <li>{@code drainOnExit=MILLIS}: at JVM shutdown, stop admitting and wait up to MILLIS for the
 *       calls waiting in Weir.
 * </ul>
 *
 * <p>An unknown key, a pair without {@code =}, or a bad value (of an agent argument, or of a {@code
 * -Dweir.KEY} property for one of these keys) is an {@link #errors() error}: the agent stops the
 * JVM at start-up, or refuses an attach whole, so a typo never silently decides what is limited.
 * Blank pairs ({@code config=x,,log=debug}, a trailing comma) name nothing and are skipped. A key
 * given twice takes its last value. Other {@code weir.*} properties are not the agent's to judge.
 * Immutable.
 */
public final class AgentArgs {
  /** The keys the agent reads, in the order its messages list them. */
  static final List<String> KEYS =
      Collections.unmodifiableList(
          Arrays.asList(
              "config",
              "log",
              "enabled",
              "maxKeys",
              "watch",
              "prometheus",
              "summary",
              "drainOnExit"));

  private final String configPath;
  private final int logLevel;
  private final boolean enabled;
  private final int maxKeys;
  private final boolean watch;
  private final String prometheusHost;
  private final int prometheusPort;
  private final int summarySeconds;
  private final long drainOnExitMillis;
  private final Set<String> given;
  private final List<String> errors = new ArrayList<String>();

  private AgentArgs(Map<String, String> values, Set<String> given, List<String> syntaxErrors) {
    this.given = Collections.unmodifiableSet(given);
    errors.addAll(syntaxErrors);
    this.configPath = configPath(values.get("config"));
    this.logLevel = logLevel(values.get("log"));
    this.enabled = flag("enabled", values.get("enabled"), true);
    this.maxKeys = maxKeys(values.get("maxKeys"));
    this.watch = flag("watch", values.get("watch"), false);
    String prometheus = values.get("prometheus");
    String host = null;
    int port = -1;
    if (prometheus != null) {
      int colon = prometheus.lastIndexOf(':');
      String portText = colon < 0 ? prometheus : prometheus.substring(colon + 1);
      host = colon < 0 ? null : prometheus.substring(0, colon);
      if (host != null && host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1); // [::1]:9464
      }
      port = (int) whole(portText, 0, 65_535);
      if (port < 0 || host != null && host.isEmpty()) {
        errors.add(
            name("prometheus")
                + " must be [HOST:]PORT with a port from 0 to 65535, was '"
                + prometheus
                + "'");
        port = -1;
        host = null;
      }
    }
    this.prometheusHost = host;
    this.prometheusPort = port;
    this.summarySeconds = (int) positive("summary", values.get("summary"), Integer.MAX_VALUE);
    this.drainOnExitMillis = positive("drainOnExit", values.get("drainOnExit"), Long.MAX_VALUE);
  }

  /**
   * Parses the agent argument string and the {@code weir.*} system properties.
   *
   * @param args the text after {@code =} in {@code -javaagent:weir-agent.jar=...}; may be null
   * @param system the system properties
   * @return the arguments, with any errors
   */
  public static AgentArgs parse(String args, Properties system) {
    Map<String, String> values = new LinkedHashMap<String, String>();
    for (String key : KEYS) {
      String property = system.getProperty("weir." + key);
      if (property != null) {
        values.put(key, property);
      }
    }
    Set<String> given = new LinkedHashSet<String>();
    List<String> errors = new ArrayList<String>();
    if (args != null && !args.trim().isEmpty()) {
      for (String pair : args.split(",")) {
        if (pair.trim().isEmpty()) {
          continue; // config=x,,log=debug: a blank pair names nothing, so it decides nothing
        }
        int eq = pair.indexOf('=');
        String key = (eq < 0 ? pair : pair.substring(0, eq)).trim();
        String value = eq < 0 ? null : pair.substring(eq + 1).trim();
        if (value == null) {
          errors.add(
              "agent argument '"
                  + pair.trim()
                  + "' must be key=value (jcmd drops '=value' unless the options are quoted:"
                  + " JVMTI.agent_load weir-agent.jar '\"key=value,key=value\"')");
        } else if (KEYS.contains(key)) {
          values.put(key, value);
          given.add(key);
        } else {
          errors.add(
              "unknown agent argument '"
                  + key
                  + "' (known: "
                  + String.join(", ", KEYS)
                  + "), was "
                  + pair);
        }
      }
    }
    return new AgentArgs(values, given, errors);
  }

  /** How the user wrote {@code key}: as an agent argument, or as its system property. */
  private String name(String key) {
    return given.contains(key) ? "agent argument " + key : "-Dweir." + key;
  }

  private String configPath(String path) {
    if (path != null && path.trim().isEmpty()) {
      errors.add(name("config") + " must be the path of a config file, was '" + path + "'");
      return null;
    }
    return path;
  }

  private int logLevel(String log) {
    if (log == null || log.equalsIgnoreCase("info")) {
      return AgentLog.INFO;
    }
    if (log.equalsIgnoreCase("debug")) {
      return AgentLog.DEBUG;
    }
    if (log.equalsIgnoreCase("off")) {
      return AgentLog.OFF;
    }
    errors.add(name("log") + " must be info, debug or off, was '" + log + "'");
    return AgentLog.INFO;
  }

  private boolean flag(String key, String text, boolean fallback) {
    if (text == null) {
      return fallback;
    }
    String value = text.toLowerCase(Locale.ROOT);
    if (value.equals("false") || value.equals("no") || value.equals("off")) {
      return false;
    }
    if (value.equals("true") || value.equals("yes") || value.equals("on")) {
      return true;
    }
    errors.add(name(key) + " must be true or false (or yes/no, on/off), was '" + text + "'");
    return fallback;
  }

  private int maxKeys(String text) {
    if (text == null) {
      return KeyedBuckets.DEFAULT_MAX_KEYS;
    }
    long keys = whole(text, 1, Integer.MAX_VALUE);
    if (keys < 1) {
      errors.add(
          name("maxKeys")
              + " must be a whole number from 1 to "
              + Integer.MAX_VALUE
              + ", was '"
              + text
              + "'");
      return KeyedBuckets.DEFAULT_MAX_KEYS;
    }
    return (int) keys;
  }

  /** A whole number of seconds or milliseconds, {@code >= 0}; 0 (off) if absent, 0 or bad. */
  private long positive(String key, String text, long max) {
    if (text == null) {
      return 0;
    }
    long value = whole(text, 0, max); // 0: off, as when it is not given
    if (value < 0) {
      errors.add(
          name(key) + " must be a whole number from 0 (off) to " + max + ", was '" + text + "'");
      return 0;
    }
    return value;
  }

  /** {@code text} as a whole number in {@code min..max} ({@code _} allowed); -1 if it is not. */
  private static long whole(String text, long min, long max) {
    try {
      long value = Long.parseLong(text.replace("_", ""));
      return value >= min && value <= max ? value : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * The bound on keys held by each per-key limiter ({@code maxKeys=}, or {@code -Dweir.maxKeys}).
   *
   * @return keys, {@code >= 1}; {@link KeyedBuckets#DEFAULT_MAX_KEYS} unless given
   */
  public int maxKeys() {
    return maxKeys;
  }

  /**
   * The config file path.
   *
   * @return the path, or null if none was given
   */
  public String configPath() {
    return configPath;
  }

  /**
   * The log level.
   *
   * @return one of the {@link AgentLog} levels
   */
  public int logLevel() {
    return logLevel;
  }

  /**
   * False when the kill switch is set: nothing is woven.
   *
   * @return whether the agent weaves
   */
  public boolean enabled() {
    return enabled;
  }

  /**
   * Whether the config file is re-read whenever it changes.
   *
   * @return true for {@code watch=true}
   */
  public boolean watch() {
    return watch;
  }

  /**
   * The port of the metrics endpoint.
   *
   * @return {@code 0..65535} ({@code 0}: any free port); -1 if no metrics are served
   */
  public int prometheusPort() {
    return prometheusPort;
  }

  /**
   * The address the metrics endpoint listens on.
   *
   * @return the host, or null for all interfaces
   */
  public String prometheusHost() {
    return prometheusHost;
  }

  /**
   * The period of the summary log lines.
   *
   * @return seconds; 0 when off
   */
  public int summarySeconds() {
    return summarySeconds;
  }

  /**
   * How long shutdown waits for calls waiting in Weir.
   *
   * @return milliseconds; 0 when off
   */
  public long drainOnExitMillis() {
    return drainOnExitMillis;
  }

  /**
   * The keys given in the argument string itself (not as system properties), for an attach to a JVM
   * already running Weir: what it asks to change.
   *
   * @return the keys, in the order given
   */
  public Set<String> given() {
    return given;
  }

  /**
   * Problems with the arguments, each naming the argument (as the user wrote it: {@code agent
   * argument maxKeys} or {@code -Dweir.maxKeys}), the value and the rule; an unknown key's also
   * lists the known ones. Any error means the arguments must not be acted on.
   *
   * @return the errors: unknown keys and pairs without {@code =} in the order given, then bad
   *     values in the order of the keys above; empty if none
   */
  public List<String> errors() {
    return Collections.unmodifiableList(errors);
  }
}
