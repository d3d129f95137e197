package dev.weir.agent.cli;

import java.util.Locale;

/**
 * The text of the limiter table {@code status} and {@code top} print: its header, a limiter's line,
 * and the numbers squeezed into their columns (which {@code set}'s answer uses too). 77 columns, so
 * that the table fits an 80-column terminal. Stateless; thread-safe.
 */
final class Table {
  /** The column widths, negative for a left-aligned one; a space follows the first. */
  private static final int[] WIDTHS = {-16, -8, 7, 6, 6, 9, 9, 8, 7};

  private Table() {}

  /**
   * A line of the table, padded by hand: {@link String#format} made formatting 10,000 lines take
   * most of a second.
   */
  private static String cells(String... cells) {
    StringBuilder line = new StringBuilder(80);
    for (int i = 0; i < cells.length; i++) {
      int pad = Math.abs(WIDTHS[i]) - cells[i].length();
      for (int p = 0; WIDTHS[i] > 0 && p < pad; p++) {
        line.append(' ');
      }
      line.append(cells[i]);
      for (int p = 0; WIDTHS[i] < 0 && p < pad; p++) {
        line.append(' ');
      }
      if (i == 0) {
        line.append(' ');
      }
    }
    return line.toString();
  }

  /** The header line, with these titles for the three count columns; no line end. */
  static String header(String granted, String rejected, String waited) {
    return cells("LIMITER", "KIND", "RATE/S", "CAP", "AVAIL", granted, rejected, waited, "P99 MS");
  }

  /** A name in 16 columns: a longer one keeps its end, the part that tells methods apart. */
  static String fit(String name) {
    return name.length() <= 16 ? name : "~" + name.substring(name.length() - 15);
  }

  /** A limiter's line, with these figures (totals or rates) in the count columns; no line end. */
  static String line(Row row, double granted, double rejected, double waited) {
    String kind = row.kind;
    kind = kind.endsWith("SHAPING") ? "shaping" : kind.endsWith("POLICING") ? "policing" : "token";
    if (row.dryRun) {
      kind = kind.substring(0, Math.min(kind.length(), 4)) + " dry";
    }
    return cells(
        fit(row.name),
        kind,
        compact(row.rate, 6),
        compact(row.capacity, 5),
        compact(row.available, 5),
        compact(granted, 8),
        compact(rejected, 8),
        compact(waited, 7),
        compact(row.p99WaitMillis, 6));
  }

  /**
   * A number in at most {@code width} characters: whole where whole, else with decimals as room
   * allows, then scaled with k, M, G, T.
   */
  static String compact(double v, int width) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      String whole = String.valueOf((long) v);
      if (whole.length() <= width) {
        return whole;
      }
    } else if (Math.abs(v) < 0.01) {
      String s = String.format(Locale.ROOT, "%.2g", v);
      return s.length() <= width ? s : String.format(Locale.ROOT, "%.0e", v);
    } else {
      for (int decimals = Math.abs(v) < 1 ? 2 : 1; decimals >= 0; decimals--) {
        String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
        if (s.length() <= width) {
          return s;
        }
      }
    }
    return scaled(v, width);
  }

  /** {@code v} in thousands, millions, ... with k, M, G, T, P, E: the first that fits. */
  private static String scaled(double v, int width) {
    String[] units = {"k", "M", "G", "T", "P", "E"};
    double x = v;
    for (String unit : units) {
      x /= 1e3;
      if (Math.abs(x) >= 1e3) {
        continue;
      }
      for (int decimals = 1; decimals >= 0; decimals--) {
        String s = String.format(Locale.ROOT, "%." + decimals + "f%s", x, unit);
        if (s.length() <= width) {
          return s;
        }
      }
    }
    return String.format(Locale.ROOT, "%.0e", v);
  }
}
