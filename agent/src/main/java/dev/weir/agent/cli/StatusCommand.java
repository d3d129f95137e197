package dev.weir.agent.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * {@code status PID}: the table of PID's limiters, with their totals since they were made. Runs on
 * the command's thread.
 */
final class StatusCommand {
  private StatusCommand() {}

  /**
   * Prints the table in one write.
   *
   * @return the exit status, 0
   * @throws Jvm.Failure with the line to print when the JVM cannot be read
   */
  static int run(String pid, PrintStream out) throws Jvm.Failure {
    try (Jvm jvm = WeirMBeans.open(pid)) {
      List<Row> rows = Row.all(jvm.mbeans());
      StringBuilder table = new StringBuilder(80 * (rows.size() + 1)); // one write, not a line's
      table.append(Table.header("GRANTED", "REJECTED", "WAITED")).append(System.lineSeparator());
      for (Row row : rows) {
        table.append(Table.line(row, row.granted, row.rejected, row.waited));
        table.append(System.lineSeparator());
      }
      if (rows.isEmpty()) {
        table.append("(no limiters yet: they appear as their classes load)");
        table.append(System.lineSeparator());
      }
      out.print(table);
      out.flush();
      return 0;
    } catch (Exception e) {
      throw Jvm.failure(pid, e);
    }
  }
}
