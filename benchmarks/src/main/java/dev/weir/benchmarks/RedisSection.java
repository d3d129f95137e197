package dev.weir.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's section "Cluster scope (Redis)": a {@code scope: cluster} acquire beside Bucket4j's
 * Redis backend and a plain {@code PING}, in one JVM and in two at once, from the lines {@link
 * RedisThroughput} prints, and the goals of its throughput and p99. Stateless.
 */
final class RedisSection {
  private RedisSection() {}

  /**
   * One cell of {@code RedisThroughput}: acquires per second, p50 and p99 in microseconds.
   * Immutable.
   */
  record Cell(double opsPerSecond, double p50, double p99) {
    Cell with(Cell other) { // two JVMs at once: their acquires add, the worse latency shows
      return new Cell(
          opsPerSecond + other.opsPerSecond, Math.max(p50, other.p50), Math.max(p99, other.p99));
    }
  }

  /**
   * The cells of {@code redis MODE THREADS OPS P50 P99} lines, by {@code MODE/THREADS}; other lines
   * are passed over.
   *
   * @param lines a {@code RedisThroughput} output
   * @return its cells, in order
   */
  static Map<String, Cell> cells(List<String> lines) {
    Map<String, Cell> cells = new LinkedHashMap<>();
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      if (f.length == 6 && f[0].equals("redis")) {
        cells.put(
            f[1] + "/" + f[2],
            new Cell(Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5])));
      }
    }
    return cells;
  }

  /**
   * Appends the section and judges its goals.
   *
   * @param b where the section goes
   * @param goals where its goals go
   * @param one the cells of one JVM alone
   * @param first the cells of the first of two JVMs run at the same instants
   * @param second the cells of the second
   */
  static void write(
      StringBuilder b,
      Goals goals,
      Map<String, Cell> one,
      Map<String, Cell> first,
      Map<String, Cell> second) {
    b.append("## Cluster scope (Redis)\n\n");
    b.append("A `scope: cluster` limit's woven call (one `EVALSHA` of the core's GCRA each) ");
    b.append("against a `redis-server` on this machine, beside Bucket4j's Redis backend ");
    b.append("(compare-and-swap: a `GET`, then a CAS script, on the JVM's clock) over the same ");
    b.append("client, Jedis, and a plain `PING`; every bucket large enough that nothing is ");
    b.append("limited; 5 s per cell after 1 s of warm-up (`RedisThroughput`). Two JVMs run ");
    b.append(
        "their cells at the same instants: acquires/s add, latencies are the worse JVM's.\n\n");
    b.append("| | threads per JVM | acquires/s | p50 µs | p99 µs |\n|---|---:|---:|---:|---:|\n");
    String[][] rows = {
      {"PING", "ping"}, {"Weir", "weir"}, {"Bucket4j", "bucket4j"},
    };
    for (String[] row : rows) {
      for (String t : new String[] {"1", "8"}) {
        row(b, row[0] + ", one JVM", t, one.get(row[1] + "/" + t));
      }
    }
    for (String[] row : new String[][] {rows[1], rows[2]}) {
      for (String t : new String[] {"1", "8"}) {
        String key = row[1] + "/" + t;
        row(b, row[0] + ", two JVMs", t, first.get(key).with(second.get(key)));
      }
    }
    b.append('\n');
    judge(goals, one);
  }

  /** The goals of one JVM's cluster acquire: throughput beside Bucket4j's, p99 beside a PING's. */
  private static void judge(Goals goals, Map<String, Cell> one) {
    Cell w1 = one.get("weir/1");
    Cell w8 = one.get("weir/8");
    Cell b1 = one.get("bucket4j/1");
    Cell b8 = one.get("bucket4j/8");
    Cell p1 = one.get("ping/1");
    Cell p8 = one.get("ping/8");
    double r1 = w1.opsPerSecond() / b1.opsPerSecond();
    double r8 = w8.opsPerSecond() / b8.opsPerSecond();
    goals.add(
        "a cluster acquire, 1 thread: at least Bucket4j's Redis backend's throughput",
        String.format(Locale.ROOT, "%.2f× Bucket4j's", r1),
        r1 >= 1.0);
    goals.add(
        "a cluster acquire, 8 threads: at least 3× Bucket4j's throughput",
        String.format(Locale.ROOT, "%.2f× Bucket4j's", r8),
        r8 >= 3.0);
    double q1 = w1.p99() / p1.p99();
    double q8 = w8.p99() / p8.p99();
    goals.add(
        "a cluster acquire's p99 at most 2× a PING's, 1 and 8 threads",
        String.format(Locale.ROOT, "%.2f× and %.2f×", q1, q8),
        Math.max(q1, q8) <= 2.0);
  }

  private static void row(StringBuilder b, String what, String threads, Cell c) {
    b.append(
        String.format(
            Locale.ROOT,
            "| %s | %s | %,.0f | %.0f | %.0f |%n",
            what,
            threads,
            c.opsPerSecond(),
            c.p50(),
            c.p99()));
  }
}
