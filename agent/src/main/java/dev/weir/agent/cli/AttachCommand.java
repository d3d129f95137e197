package dev.weir.agent.cli;

import java.io.File;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code attach PID [ARGS]}: loads the agent jar this command runs from into PID, and prints the
 * report the agent leaves of its start, its errors on the error stream. Stateless.
 */
final class AttachCommand {
  private AttachCommand() {}

  /**
   * Loads the agent and prints its report.
   *
   * @param options the agent's arguments ({@code config=...,log=...}); null for none
   * @return the exit status: 0, or 1 if the load failed or the report holds an error
   * @throws Jvm.Failure with the line to print when the JVM cannot be attached to
   */
  static int run(String pid, String options, PrintStream out, PrintStream err) throws Jvm.Failure {
    String jar = ownJar();
    options = absoluteConfig(options);
    try (Jvm jvm = Jvm.attach(pid)) {
      String failure = jvm.loadAgent(jar, options);
      String report = jvm.systemProperties().getProperty(Jvm.ATTACH_REPORT, "");
      boolean errors = failure != null;
      for (String line : report.isEmpty() ? new String[0] : report.split("\n")) {
        (line.contains(" ERROR ") ? err : out).println(line);
        errors |= line.contains(" ERROR ");
      }
      if (failure != null && report.isEmpty()) {
        err.println("weir: JVM " + pid + " did not load the agent: " + failure);
      }
      return errors ? 1 : 0;
    }
  }

  /**
   * The options with a relative {@code config=} path made absolute: the target JVM would read it
   * from its own working directory, not the operator's.
   */
  static String absoluteConfig(String options) {
    if (options == null) {
      return null;
    }
    List<String> pairs = new ArrayList<String>();
    for (String pair : options.split(",", -1)) {
      String trimmed = pair.trim();
      if (trimmed.startsWith("config=")) {
        String path = trimmed.substring("config=".length()).trim();
        if (!path.isEmpty() && !new File(path).isAbsolute()) {
          pair = "config=" + new File(path).getAbsolutePath();
        }
      }
      pairs.add(pair);
    }
    return String.join(",", pairs);
  }

  private static String ownJar() throws Jvm.Failure {
    try {
      return new File(WeirCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .getAbsolutePath();
    } catch (URISyntaxException | RuntimeException e) {
      throw new Jvm.Failure("cannot find the agent jar this command runs from: " + e);
    }
  }
}
