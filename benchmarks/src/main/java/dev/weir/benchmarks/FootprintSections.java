package dev.weir.benchmarks;

import java.util.Locale;
import java.util.Map;

/**
 * The report's sections on what Weir costs a process rather than a call: start-up ({@code
 * benchmarks/startup/run.sh}'s table) and per-key memory ({@link KeyMemory}), with their goals.
 * Stateless.
 */
final class FootprintSections {
  private FootprintSections() {}

  /**
   * Appends "Start-up" and judges its goals on the pairs' 95% intervals.
   *
   * @param b where the section goes
   * @param goals where its goals go
   * @param table the start-up table, Markdown: name, median ms, ratio, interval
   */
  static void startup(StringBuilder b, Goals goals, String table) {
    b.append("## Start-up\n\n");
    b.append("A program loading 5,000 classes from a jar, started with an agent that does ");
    b.append("nothing and with Weir, in pairs of whole-process runs back to back, in a rotating ");
    b.append("order; the ratio is the median of the pairs' ratios, with its 95% interval ");
    b.append("(`benchmarks/startup/run.sh`).\n\n");
    b.append(table.strip()).append("\n\n");
    double none = Double.NaN;
    double ten = Double.NaN;
    String noneInterval = "?";
    String tenInterval = "?";
    for (String line : table.split("\n")) {
      String[] cells = line.split("\\|"); // "", name, median ms, ratio, interval
      if (line.startsWith("| Weir, no config")) {
        none = Double.parseDouble(cells[3].trim());
        noneInterval = cells[4].trim();
      } else if (line.startsWith("| Weir, ten patterns")) {
        ten = Double.parseDouble(cells[3].trim());
        tenInterval = cells[4].trim();
      }
    }
    goals.add(
        "start-up at most 1.10× an empty agent with no config (median of the pairs' ratios)",
        String.format(Locale.ROOT, "%.2f× (95%%: %s)", none, noneInterval),
        Goals.intervalVerdict(noneInterval, 1.10));
    goals.add(
        "start-up at most 1.35× an empty agent with ten config patterns (median of the pairs'"
            + " ratios)",
        String.format(Locale.ROOT, "%.2f× (95%%: %s)", ten, tenInterval),
        Goals.intervalVerdict(tenInterval, 1.35));
  }

  /**
   * Appends "Per-key memory" and judges its goal.
   *
   * @param b where the section goes
   * @param goals where its goal goes
   * @param m the figures of {@link KeyMemory}, bytes
   */
  static void memory(StringBuilder b, Goals goals, Map<String, String> m) {
    double live = Double.parseDouble(m.get("liveBytesPerKey"));
    b.append("## Per-key memory\n\n");
    b.append("Heap after full collections, beside the key strings, at 1,000,000 keys ");
    b.append("(`KeyMemory`).\n\n| | bytes |\n|---|---:|\n");
    b.append("| per live key | ").append(m.get("liveBytesPerKey")).append(" |\n");
    b.append("| all keys, once idle and swept | ").append(m.get("idleBytesLeft")).append(" |\n");
    b.append("| per key of a bare `ConcurrentHashMap<String, long[]>`, for scale | ");
    b.append(m.get("baselineBytesPerKey")).append(" |\n\n");
    goals.add(
        "at most 96 bytes per live key",
        String.format(Locale.ROOT, "%.1f bytes", live),
        live <= 96);
  }
}
