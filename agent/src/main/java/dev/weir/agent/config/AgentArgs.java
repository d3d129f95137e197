package dev.weir.agent.config;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.BucketLimiter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The agent's arguments: {@code -javaagent:weir-agent.jar=key=value,key=value}, each key also
 * readable as a {@code -Dweir.KEY} system property; the agent argument wins.
 *
 * <ul>
 *   <li>{@code config=PATH} ({@code weir.config}): the config file;
 *   <li>{@code log=info|debug|off} ({@code weir.log}): default {@code info};
 *   <li>{@code enabled=false} ({@code weir.enabled}): the kill switch, nothing is woven ({@code no}
 *       and {@code off} also switch it off).
 * </ul>
 *
 * <p>An unknown key or a bad value is an {@link #errors() error}, reported by the agent; it never
 * silently changes what is limited. Immutable.
 */
public final class AgentArgs {
  private final String configPath;
  private final int logLevel;
  private final boolean enabled;
  private final int maxKeys;
  private final List<String> errors;

  private AgentArgs(
      String configPath, int logLevel, boolean enabled, int maxKeys, List<String> errors) {
    this.configPath = configPath;
    this.logLevel = logLevel;
    this.enabled = enabled;
    this.maxKeys = maxKeys;
    this.errors = Collections.unmodifiableList(errors);
  }

  /**
   * Parses the agent argument string and the {@code weir.*} system properties.
   *
   * @param args the text after {@code =} in {@code -javaagent:weir-agent.jar=...}; may be null
   * @param system the system properties
   * @return the arguments, with any errors
   */
  public static AgentArgs parse(String args, Properties system) {
    List<String> errors = new ArrayList<String>();
    String config = system.getProperty("weir.config");
    String log = system.getProperty("weir.log");
    String enabled = system.getProperty("weir.enabled");
    String maxKeys = system.getProperty("weir.maxKeys");
    if (args != null && !args.trim().isEmpty()) {
      for (String pair : args.split(",")) {
        int eq = pair.indexOf('=');
        String key = (eq < 0 ? pair : pair.substring(0, eq)).trim();
        String value = eq < 0 ? null : pair.substring(eq + 1).trim();
        if (value == null) {
          errors.add(
              "agent argument '"
                  + pair.trim()
                  + "' must be key=value (jcmd drops '=value' unless the options are quoted:"
                  + " JVMTI.agent_load weir-agent.jar '\"key=value,key=value\"')");
        } else if (key.equals("config")) {
          config = value;
        } else if (key.equals("log")) {
          log = value;
        } else if (key.equals("enabled")) {
          enabled = value;
        } else if (key.equals("maxKeys")) {
          maxKeys = value;
        } else {
          errors.add(
              "unknown agent argument '"
                  + key
                  + "' (known: config, log, enabled, maxKeys), was "
                  + pair);
        }
      }
    }
    int level = AgentLog.INFO;
    if (log != null) {
      if (log.equalsIgnoreCase("info")) {
        level = AgentLog.INFO;
      } else if (log.equalsIgnoreCase("debug")) {
        level = AgentLog.DEBUG;
      } else if (log.equalsIgnoreCase("off")) {
        level = AgentLog.OFF;
      } else {
        errors.add("log must be info, debug or off, was '" + log + "'");
      }
    }
    boolean on = true;
    if (enabled != null) {
      String value = enabled.toLowerCase(Locale.ROOT);
      if (value.equals("false") || value.equals("no") || value.equals("off")) {
        on = false;
      } else if (!value.equals("true") && !value.equals("yes") && !value.equals("on")) {
        errors.add(
            "enabled must be true or false (or yes/no, on/off), was '"
                + enabled
                + "'; the agent stays enabled");
      }
    }
    int keys = BucketLimiter.DEFAULT_MAX_KEYS;
    if (maxKeys != null) {
      try {
        keys = Integer.parseInt(maxKeys.replace("_", ""));
      } catch (NumberFormatException e) {
        keys = 0;
      }
      if (keys < 1) {
        errors.add(
            "maxKeys must be a whole number from 1 to "
                + Integer.MAX_VALUE
                + ", was '"
                + maxKeys
                + "'; the default "
                + BucketLimiter.DEFAULT_MAX_KEYS
                + " applies");
        keys = BucketLimiter.DEFAULT_MAX_KEYS;
      }
    }
    return new AgentArgs(config, level, on, keys, errors);
  }

  /**
   * The bound on keys held by each per-key limiter ({@code maxKeys=}, or {@code -Dweir.maxKeys}).
   *
   * @return keys, {@code >= 1}; {@link BucketLimiter#DEFAULT_MAX_KEYS} unless given
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
   * Problems with the arguments, each naming the argument and the value.
   *
   * @return the errors, empty if none
   */
  public List<String> errors() {
    return errors;
  }
}
