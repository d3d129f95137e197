package dev.weir.agent.ops;

import javax.management.openmbean.CompositeData;

/**
 * The agent as JMX shows it, {@code dev.weir:type=Agent}: its version, its config file and
 * limiters, and config reload with its outcomes. Only JDK types cross it.
 */
public interface AgentMBean {
  /**
   * The agent's version.
   *
   * @return for example {@code 0.1.0}
   */
  String getVersion();

  /**
   * The config file.
   *
   * @return its path as given; empty if the agent runs without one
   */
  String getConfigFile();

  /**
   * The names of the limiters now, each once.
   *
   * @return the names, sorted
   */
  String[] getLimiters();

  /**
   * Every limiter MBean's scalar attributes at once: one call where reading each MBean is one call
   * per limiter (how the command line's {@code status} and {@code top} read 10,000 limiters).
   *
   * @return the table, a column per attribute: item {@code MBean} ({@code String[]}) has each
   *     limiter's MBean name, sorted as strings; every other item is named as a limiter MBean
   *     attribute and is an array of that attribute's type ({@code Rate} a {@code double[]}, {@code
   *     Granted} a {@code long[]}, ...), each value at its limiter's index
   */
  CompositeData limiterTable();

  /**
   * Reloads applied since the agent started (by this operation, the command line, an attach or a
   * watch).
   *
   * @return reloads
   */
  long getReloadsSucceeded();

  /**
   * Reloads refused since the agent started: each left every limit as it was.
   *
   * @return reloads
   */
  long getReloadsFailed();

  /**
   * The errors of the last refused reload, one per line.
   *
   * @return the errors; empty if no reload was refused
   */
  String getLastReloadError();

  /**
   * Re-reads the config file and applies it whole, or not at all.
   *
   * @return what changed, one line per entry ({@code nothing changed} if nothing did)
   * @throws IllegalArgumentException with every error of the file, one per line, if it was refused;
   *     every limit stays as it was
   */
  String reloadConfig();
}
