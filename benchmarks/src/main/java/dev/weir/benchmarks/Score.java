package dev.weir.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One JMH score, with the levels its iterations fall into.
 *
 * <p>Two threads sharing one CAS word run at one of two speeds on a small VM, and switch between
 * them within a fork, every limiter and the floor alike (the cost of moving a cache line between
 * the two virtual CPUs depends on where the host places them). An average then mostly measures how
 * long a benchmark happened to run at each speed, so where the iterations fall into two such levels
 * ({@link #levels()}) the report gives each level's median.
 *
 * <p>Immutable, so safe to share (the iterations array is not copied: the caller gives it up).
 *
 * @param value the average, ns/op
 * @param error its 99.9% error, ns/op; NaN when JMH could not compute it
 * @param iterations every measured iteration of every fork, ns/op
 */
record Score(double value, double error, double[] iterations) {
  /**
   * Two levels are told apart when sorted iterations step up by at least this factor from one to
   * the next; the two speeds of a shared cache line differ by about 1.7 times on the reference VM,
   * and iterations within one level by a few percent.
   */
  static final double LEVEL_STEP = 1.3;

  /** Each level holds at least this many iterations, so one stray iteration is not a level. */
  static final int MIN_LEVEL = 2;

  /** The average and its error as the tables show them, ns/op: {@code "21.0 ± 0.2"}. */
  String text() {
    return Double.isNaN(error)
        ? String.format(Locale.ROOT, "%.1f ± ?", value)
        : String.format(Locale.ROOT, "%.1f ± %.1f", value, error);
  }

  /**
   * The iterations in levels: two when, sorted, they step up at one place by at least {@link
   * #LEVEL_STEP} with at least {@link #MIN_LEVEL} on each side (split at the widest step), else
   * one.
   *
   * @return the levels, lowest first, each sorted
   */
  List<double[]> levels() {
    double[] sorted = iterations.clone();
    Arrays.sort(sorted);
    int split = -1;
    double widest = LEVEL_STEP;
    for (int i = MIN_LEVEL; i <= sorted.length - MIN_LEVEL; i++) {
      double step = sorted[i] / sorted[i - 1];
      if (step >= widest) {
        widest = step;
        split = i;
      }
    }
    return split < 0
        ? List.of(sorted)
        : List.of(
            Arrays.copyOfRange(sorted, 0, split), Arrays.copyOfRange(sorted, split, sorted.length));
  }

  /** The best this score can be: its lowest level's median, or the average less its error. */
  double best() {
    List<double[]> levels = levels();
    return levels.size() > 1 ? median(levels.get(0)) : value - error;
  }

  /** The worst this score can be: its highest level's median, or the average plus its error. */
  double worst() {
    List<double[]> levels = levels();
    return levels.size() > 1 ? median(levels.get(levels.size() - 1)) : value + error;
  }

  /**
   * The median of sorted values.
   *
   * @param sorted at least one value, in ascending order
   * @return the middle value, or the mean of the two middle values
   */
  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
