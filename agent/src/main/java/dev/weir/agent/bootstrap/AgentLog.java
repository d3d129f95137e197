package dev.weir.agent.bootstrap;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

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

  /** While an attach runs: the lines logged, whatever the level (debug aside); else null. */
  private static List<String> captured;

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
    int[] section = CallDepth.enterWeir(); // a config limit on the JDK's writers must not stop it
    try {
      keep("[weir] ERROR " + message);
      write("[weir] ERROR " + message);
    } finally {
      section[0]--;
    }
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
    // first of all: a config limit on the JDK methods a line is built and written with (lists,
    // writers) must never charge or stop Weir's logging
    int[] section = CallDepth.enterWeir();
    try {
      if (atLevel < DEBUG) {
        keep("[weir] " + tag + message);
      }
      if (level >= atLevel) {
        write("[weir] " + tag + message);
      }
    } finally {
      section[0]--;
    }
  }

  private static synchronized void keep(String line) {
    if (captured != null) {
      captured.add(line);
    }
  }

  /**
   * Starts or stops keeping the lines logged (errors, warnings and information, whatever the
   * level), for the report of an attach.
   *
   * @param on true to start, false to stop
   * @return on stopping, the lines kept since the start; otherwise an empty list
   */
  public static synchronized List<String> capture(boolean on) {
    List<String> lines = captured;
    captured = on ? new ArrayList<String>() : null;
    return on || lines == null ? new ArrayList<String>() : lines;
  }

  /** Writes a line; the caller is inside a section of Weir's own. */
  private static void write(String line) {
    PrintStream err = System.err;
    err.println(line);
  }
}
