package dev.weir.benchmarks;

import java.util.List;

/** Rows of the report's Markdown tables. Stateless. */
final class Markdown {
  private Markdown() {}

  /**
   * Appends one table row: {@code | a | b | c |} and a newline.
   *
   * @param md where the row goes
   * @param cells the row's cells, left to right, as the table shows them
   */
  static void row(StringBuilder md, List<String> cells) {
    md.append("| ").append(String.join(" | ", cells)).append(" |\n");
  }

  /**
   * Appends one table row whose first cell names it and whose others come from {@code cells}.
   *
   * @param md where the row goes
   * @param name the first cell
   * @param cells the other cells, left to right
   */
  static void row(StringBuilder md, String name, List<String> cells) {
    md.append("| ").append(name);
    for (String cell : cells) {
      md.append(" | ").append(cell);
    }
    md.append(" |\n");
  }
}
