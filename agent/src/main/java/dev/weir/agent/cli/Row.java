package dev.weir.agent.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import javax.management.MBeanServerConnection;
import javax.management.ReflectionException;
import javax.management.openmbean.CompositeData;

/**
 * One limiter's row of {@code status} and {@code top}: the attributes the table shows, read with
 * every other limiter's in one exchange. Immutable.
 */
final class Row {
  /** The long columns a row takes, in the constructor's order. */
  private static final String[] COUNTS = {
    "Capacity", "AvailablePermits", "Granted", "Rejected", "Waited"
  };

  final String name;
  final String kind;
  final boolean dryRun;
  final double rate;
  final long capacity;
  final long available;
  final long granted;
  final long rejected;
  final long waited;
  final double p99WaitMillis;

  /** The row of limiter {@code i} of a {@code limiterTable()}, whose columns are given. */
  private Row(
      String name,
      int i,
      String[] kind,
      boolean[] dryRun,
      double[] rate,
      long[][] counts,
      double[] p99WaitMillis) {
    this.name = name;
    this.kind = kind[i];
    this.dryRun = dryRun[i];
    this.rate = rate[i];
    this.capacity = counts[0][i];
    this.available = counts[1][i];
    this.granted = counts[2][i];
    this.rejected = counts[3][i];
    this.waited = counts[4][i];
    this.p99WaitMillis = p99WaitMillis[i];
  }

  /**
   * Every limiter's row, sorted by name, in one exchange: the agent's {@code limiterTable()}, a
   * column per attribute (so 10,000 limiters are one call, not one per MBean).
   *
   * @throws Jvm.Failure if the JVM's Weir is too old to give the table
   * @throws Exception as the MBean call throws it
   */
  static List<Row> all(MBeanServerConnection mbeans) throws Exception {
    CompositeData table;
    try {
      table =
          (CompositeData)
              mbeans.invoke(WeirMBeans.agent(), "limiterTable", new Object[0], new String[0]);
    } catch (ReflectionException older) {
      throw new Jvm.Failure(
          "this JVM's Weir is older than this command line and cannot give its limiter table:"
              + " use the weir-agent.jar the JVM runs");
    }
    String[] names = (String[]) table.get("MBean");
    String[] kind = (String[]) table.get("Kind");
    boolean[] dryRun = (boolean[]) table.get("DryRun");
    double[] rate = (double[]) table.get("Rate");
    double[] p99 = (double[]) table.get("WaitP99Millis");
    long[][] counts = new long[COUNTS.length][];
    for (int c = 0; c < COUNTS.length; c++) {
      counts[c] = (long[]) table.get(COUNTS[c]);
    }
    List<Row> rows = new ArrayList<Row>(names.length);
    for (int i = 0; i < names.length; i++) {
      rows.add(new Row(WeirMBeans.label(names[i]), i, kind, dryRun, rate, counts, p99));
    }
    Collections.sort(
        rows,
        new Comparator<Row>() {
          @Override
          public int compare(Row a, Row b) {
            return a.name.compareTo(b.name);
          }
        });
    return rows;
  }
}
