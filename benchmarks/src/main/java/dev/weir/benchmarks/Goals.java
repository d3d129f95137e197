package dev.weir.benchmarks;

import java.util.ArrayList;
import java.util.List;

/**
 * The goals of the benchmark issue, judged from one run's figures with their error bars, in the
 * order the report's sections judge them, and the table that opens the report. A goal is met when
 * the whole error interval meets it, missed when the whole interval misses it, and otherwise not
 * settled. Not thread-safe: one report fills it.
 */
final class Goals {
  /** A verdict: met, missed, or not settled by the error bars. */
  enum Verdict {
    MET("met"),
    MISSED("**missed**"),
    OPEN("**not settled** (the error bars straddle the goal; repeat the run)");

    final String text;

    Verdict(String text) {
      this.text = text;
    }
  }

  private final List<String[]> goals = new ArrayList<>();

  /**
   * Adds a goal settled by an exact figure.
   *
   * @param goal what the issue asks
   * @param figure what the run measured, as the table shows it
   * @param met whether the figure meets the goal
   */
  void add(String goal, String figure, boolean met) {
    add(goal, figure, met ? Verdict.MET : Verdict.MISSED);
  }

  /**
   * Adds a goal judged on an interval.
   *
   * @param goal what the issue asks
   * @param figure what the run measured, as the table shows it
   * @param verdict the goal's verdict
   */
  void add(String goal, String figure, Verdict verdict) {
    goals.add(new String[] {goal, figure, verdict.text});
  }

  /** Appends the goals table, its title and a row per goal in the order they were added. */
  void write(StringBuilder md) {
    md.append("## Goals\n\n| goal | figure | met? |\n|---|---|---|\n");
    for (String[] g : goals) {
      Markdown.row(md, List.of(g));
    }
  }

  /**
   * A goal "at most {@code limit}" judged on an interval: met when all of it is at most the limit,
   * missed when all of it is above, otherwise (or when a bound is unknown, NaN) not settled.
   */
  static Verdict verdict(double low, double high, double limit) {
    if (high <= limit) {
      return Verdict.MET;
    }
    return low > limit ? Verdict.MISSED : Verdict.OPEN;
  }

  /** A goal "at most {@code limit}" judged on an interval written {@code "LOW to HIGH"}. */
  static Verdict intervalVerdict(String interval, double limit) {
    String[] bounds = interval.split(" to ");
    try {
      return verdict(Double.parseDouble(bounds[0]), Double.parseDouble(bounds[1]), limit);
    } catch (RuntimeException unreadable) {
      return Verdict.OPEN;
    }
  }

  /** The worse of two verdicts: missed, then not settled, then met. */
  static Verdict worse(Verdict a, Verdict b) {
    return a == Verdict.MISSED || b == Verdict.MISSED
        ? Verdict.MISSED
        : a == Verdict.OPEN || b == Verdict.OPEN ? Verdict.OPEN : Verdict.MET;
  }
}
