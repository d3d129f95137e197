package dev.weir.agent.cli;

import java.io.PrintStream;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;

/**
 * {@code top PID}: the limiter table redrawn each second until interrupted (Ctrl-C), its count
 * columns in calls per second over the last frame and its rows busiest first. Runs on the command's
 * thread.
 */
final class TopCommand {
  private TopCommand() {}

  /**
   * Draws a frame each second until the thread is interrupted.
   *
   * @return the exit status, 0 once interrupted
   * @throws Jvm.Failure with the line to print when the JVM stops or does not answer
   */
  static int run(String pid, PrintStream out) throws Jvm.Failure {
    try (Jvm jvm = WeirMBeans.open(pid)) {
      MBeanServerConnection mbeans = jvm.mbeans();
      Map<String, double[]> before = counts(Row.all(mbeans));
      long last = System.nanoTime();
      long next = last;
      for (; ; ) {
        next = awaitFrame(next);
        List<Row> rows = Row.all(mbeans);
        long now = System.nanoTime();
        double seconds = (now - last) / 1e9;
        last = now;
        Map<String, double[]> counts = counts(rows);
        Map<String, double[]> rates = rates(rows, before, counts, seconds);
        before = counts;
        busiestFirst(rows, rates);
        out.print(screen(pid, rows, rates));
        out.flush();
      }
    } catch (InterruptedException e) {
      return 0;
    } catch (Jvm.NoAnswer e) {
      throw Jvm.failure(pid, e);
    } catch (java.io.IOException e) {
      throw new Jvm.Failure("JVM " + pid + " has stopped, or closed its management connector");
    } catch (Exception e) {
      throw Jvm.failure(pid, e);
    }
  }

  /**
   * Sleeps until the frame due a second after {@code due}: a frame each second, however long
   * reading and drawing one takes (a late one is drawn at once, and the next comes a second later).
   *
   * @param due the previous frame's due instant, in {@link System#nanoTime} nanoseconds
   * @return this frame's due instant
   * @throws InterruptedException when Ctrl-C stops the command
   */
  private static long awaitFrame(long due) throws InterruptedException {
    long next = due + 1_000_000_000L;
    long early = next - System.nanoTime();
    if (early > 0) {
      TimeUnit.NANOSECONDS.sleep(early);
    } else {
      next = System.nanoTime();
    }
    return next;
  }

  /** Each row's granted, rejected and waited counts, by name. */
  private static Map<String, double[]> counts(List<Row> rows) {
    Map<String, double[]> counts = new HashMap<String, double[]>();
    for (Row row : rows) {
      counts.put(row.name, new double[] {row.granted, row.rejected, row.waited});
    }
    return counts;
  }

  /**
   * Each row's granted, rejected and waited calls per second since the last frame, by name: 0 for a
   * limiter that was not there then.
   */
  private static Map<String, double[]> rates(
      List<Row> rows, Map<String, double[]> before, Map<String, double[]> counts, double seconds) {
    Map<String, double[]> rates = new LinkedHashMap<String, double[]>();
    for (Row row : rows) {
      double[] c = counts.get(row.name);
      double[] b = before.containsKey(row.name) ? before.get(row.name) : c;
      rates.put(
          row.name,
          new double[] {(c[0] - b[0]) / seconds, (c[1] - b[1]) / seconds, (c[2] - b[2]) / seconds});
    }
    return rates;
  }

  /** Sorts the rows by granted and rejected calls per second, most first, then by name. */
  private static void busiestFirst(List<Row> rows, final Map<String, double[]> rates) {
    Collections.sort(
        rows,
        new Comparator<Row>() {
          @Override
          public int compare(Row a, Row b) {
            double x = rates.get(a.name)[0] + rates.get(a.name)[1];
            double y = rates.get(b.name)[0] + rates.get(b.name)[1];
            return x != y ? Double.compare(y, x) : a.name.compareTo(b.name);
          }
        });
  }

  /** A frame: clear the terminal, a title line, the header, a line per row, each ending in LF. */
  private static StringBuilder screen(String pid, List<Row> rows, Map<String, double[]> rates) {
    StringBuilder screen = new StringBuilder("\033[H\033[2J");
    screen
        .append(
            String.format(
                Locale.ROOT,
                "weir top: JVM %s, %d limiter%s, per second (Ctrl-C stops)",
                pid,
                rows.size(),
                rows.size() == 1 ? "" : "s"))
        .append('\n');
    screen.append(Table.header("GRANT/S", "REJECT/S", "WAIT/S")).append('\n');
    for (Row row : rows) {
      double[] r = rates.get(row.name);
      screen.append(Table.line(row, r[0], r[1], r[2])).append('\n');
    }
    return screen;
  }
}
