package dev.weir.benchmarks;

import java.util.List;
import java.util.Locale;

/**
 * Weir's ratio to the floor (or to another limiter) in one cell of a JMH table, with the least and
 * the most it can be. Where the iterations fall into two levels ({@link Score#levels()}), Weir is
 * compared with the floor level by level. Immutable.
 *
 * @param low the least the ratio can be
 * @param high the most it can be
 * @param text how the table shows it
 */
record Ratio(double low, double high, String text) {
  /**
   * The ratio of two scores: by their error bars when neither has two levels; level by level when
   * both have; by each score's extreme level medians when only one has.
   *
   * @param weir the numerator, ns/op
   * @param floor the denominator, ns/op
   * @return the ratio, its bounds and its text
   */
  static Ratio of(Score weir, Score floor) {
    List<double[]> w = weir.levels();
    List<double[]> f = floor.levels();
    if (w.size() == 1 && f.size() == 1) {
      double low = (weir.value() - weir.error()) / (floor.value() + floor.error());
      double high = (weir.value() + weir.error()) / Math.max(1e-9, floor.value() - floor.error());
      return new Ratio(low, high, String.format(Locale.ROOT, "%.2f", weir.value() / floor.value()));
    }
    if (w.size() == 2 && f.size() == 2) {
      double lower = Score.median(w.get(0)) / Score.median(f.get(0));
      double upper = Score.median(w.get(1)) / Score.median(f.get(1));
      // the goal holds at every level: bound the worse level by its iterations' extremes
      double low = 0;
      double high = 0;
      for (int i = 0; i < 2; i++) {
        double[] wl = w.get(i);
        double[] fl = f.get(i);
        low = Math.max(low, wl[0] / fl[fl.length - 1]);
        high = Math.max(high, wl[wl.length - 1] / fl[0]);
      }
      return new Ratio(low, high, String.format(Locale.ROOT, "%.2f / %.2f by level", lower, upper));
    }
    // one split in two levels, the other not: bound the ratio by each score's best and worst
    // (its extreme level medians)
    double low = weir.best() / floor.worst();
    double high = weir.worst() / floor.best();
    return new Ratio(
        low, high, String.format(Locale.ROOT, "%.2f to %.2f (levels differ)", low, high));
  }
}
