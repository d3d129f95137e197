package dev.weir.agent.cli;

import java.io.PrintStream;
import javax.management.MBeanException;
import javax.management.MBeanServerConnection;
import javax.management.RuntimeMBeanException;

/**
 * {@code reload PID}: has PID's agent re-read its config file, and prints what changed, or each
 * error on a line of its own on the error stream. Stateless.
 */
final class ReloadCommand {
  private ReloadCommand() {}

  /**
   * Reloads, waiting {@link Jvm#WORK_MILLIS} at most (a reload may weave).
   *
   * @return the exit status: 0, or 1 if the file was refused
   * @throws Jvm.Failure with the line to print when the JVM cannot be reached
   */
  static int run(String pid, PrintStream out, PrintStream err) throws Jvm.Failure {
    try (Jvm jvm = WeirMBeans.open(pid)) {
      MBeanServerConnection mbeans = jvm.mbeans(Jvm.WORK_MILLIS); // a reload may weave
      Object result;
      try {
        result = mbeans.invoke(WeirMBeans.agent(), "reloadConfig", new Object[0], new String[0]);
      } catch (RuntimeMBeanException | MBeanException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        for (String line : String.valueOf(cause.getMessage()).split("\n")) {
          err.println(line);
        }
        return 1;
      }
      out.println(result);
      return 0;
    } catch (Exception e) {
      throw Jvm.failure(pid, e);
    }
  }
}
