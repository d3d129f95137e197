package dev.weir.agent.bootstrap;

import java.io.PrintStream;

/**
 * The agent's only logger: one line per message to {@code System.err}, prefixed {@code [weir]}.
 *
 * <p>No logging framework and no {@code java.util.logging}: an application that installs its own
 * log manager must find it untouched. Never used on the acquire path. Thread-safe.
 */
public final class AgentLog {
  /** Levels, from quietest. */
  public static final int OFF = 0;

  /** Errors only. */
  public static final int ERROR = 1;

  /** The default: the start line, warnings and errors. */
  public static final int INFO = 2;

  /** Also a line per woven limiter. */
  public static final int DEBUG = 3;

  private static volatile int level = INFO;

  private AgentLog() {}

  /**
   * Sets the level.
   *
   * @param newLevel one of {@link #OFF}, {@link #ERROR}, {@link #INFO}, {@link #DEBUG}
   */
  public static void setLevel(int newLevel) {
    level = newLevel;
  }

  /**
   * Whether debug lines are printed.
   *
   * @return true at {@link #DEBUG}
   */
  public static boolean debugEnabled() {
    return level >= DEBUG;
  }

  /**
   * Prints an error line.
   *
   * @param message the line
   */
  public static void error(String message) {
    print(ERROR, "ERROR ", message);
  }

  /**
   * Prints an error that stops the JVM, whatever the level: even {@code log=off} must not hide why
   * the application did not start.
   *
   * @param message the line
   */
  public static void fatal(String message) {
    write("[weir] ERROR " + message);
  }

  /**
   * Prints a warning line (at {@link #INFO} and above).
   *
   * @param message the line
   */
  public static void warn(String message) {
    print(INFO, "WARN ", message);
  }

  /**
   * Prints an information line.
   *
   * @param message the line
   */
  public static void info(String message) {
    print(INFO, "", message);
  }

  /**
   * Prints a debug line.
   *
   * @param message the line
   */
  public static void debug(String message) {
    print(DEBUG, "DEBUG ", message);
  }

  private static void print(int atLevel, String tag, String message) {
    if (level >= atLevel) {
      write("[weir] " + tag + message);
    }
  }

  private static void write(String line) {
    int[] section = CallDepth.enterWeir(); // a config limit on the JDK's writers must not stop it
    try {
      PrintStream err = System.err;
      err.println(line);
    } finally {
      section[0]--;
    }
  }
}
