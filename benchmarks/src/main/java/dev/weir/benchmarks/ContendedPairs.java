package dev.weir.benchmarks;

import dev.weir.agent.bootstrap.Discipline;
import dev.weir.agent.bootstrap.GcraBucket;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Two threads admitting on one shared word, with the floor and Weir's core taking turns in short
 * slices, so that each slice of Weir has slices of the floor just before and after it.
 *
 * <p>Why not JMH alone: on a small VM two threads sharing one cache line run at one of several
 * speeds (the cost of moving the line between the two virtual CPUs depends on where the host puts
 * them), and switch within seconds. JMH measures one benchmark, then the next, so a ratio of two
 * JMH averages mostly compares the speeds each happened to meet. Interleaving short slices pairs
 * like with like, as the start-up measure pairs whole-process runs; the cost of each call is the
 * same as in {@link PeerAcquireBenchmark} (the same methods, each slice a tight loop, warmed up
 * first).
 *
 * <p>Prints {@code key=value} lines: for each round, the ns per call of each contender; then the
 * medians over the rounds of Weir's ratios to the floor and to the retrying floor, and of the
 * retrying floor's to the floor, each with its 95% interval ({@code ...Low}, {@code ...High}).
 */
public final class ContendedPairs {
  static final String[] CONTENDERS = {"floor", "floorRetrying", "weir"};

  private static final int THREADS = 2;

  private final AtomicLong floorState = new AtomicLong();
  private final AtomicLong retryingState = new AtomicLong();
  private final GcraBucket weir =
      GcraBucket.create(
          Discipline.TOKEN_BUCKET,
          1e9,
          TimeUnit.SECONDS,
          1_000_000_000L,
          false,
          0,
          System.nanoTime()); // PeerAcquireBenchmark's "available" bucket

  private volatile long sink;

  /**
   * One call of a contender.
   *
   * @param contender an index into {@link #CONTENDERS}
   * @return a value that depends on the call, so the JIT keeps it
   */
  long call(int contender) {
    switch (contender) {
      case 0:
        return Floor.tick(floorState);
      case 1:
        return Floor.tickRetrying(retryingState);
      default:
        return weir.acquire(System.nanoTime(), 1, false);
    }
  }

  /**
   * Runs one slice: both threads make {@code calls} calls of one contender at once.
   *
   * @return the mean ns per call over both threads
   */
  double slice(int contender, int calls) throws Exception {
    CyclicBarrier start = new CyclicBarrier(THREADS + 1);
    long[] nanos = new long[THREADS];
    Thread[] threads = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      int id = t;
      threads[t] =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (Exception e) {
                  return;
                }
                long begin = System.nanoTime();
                long x = 0;
                for (int i = 0; i < calls; i++) {
                  x += call(contender);
                }
                nanos[id] = System.nanoTime() - begin;
                sink = x;
              });
      threads[t].start();
    }
    start.await();
    for (Thread t : threads) {
      t.join();
    }
    return (double) (nanos[0] + nanos[1]) / THREADS / calls;
  }

  /**
   * Measures {@code rounds} rounds, each one slice of every contender in turn.
   *
   * @return ns per call, {@code [round][contender]}
   */
  double[][] measure(int rounds, int callsPerSlice) throws Exception {
    for (int warmUp = 0; warmUp < 3; warmUp++) {
      for (int c = 0; c < CONTENDERS.length; c++) {
        slice(c, callsPerSlice);
      }
    }
    double[][] results = new double[rounds][CONTENDERS.length];
    for (int r = 0; r < rounds; r++) {
      for (int c = 0; c < CONTENDERS.length; c++) {
        results[r][c] = slice(c, callsPerSlice);
      }
    }
    return results;
  }

  /**
   * The median over the rounds of {@code results[r][a] / results[r][b]}, with a distribution-free
   * confidence interval of at least 95% (the order statistics {@code k} and {@code n + 1 - k} of
   * the sorted ratios, {@code k} the largest with {@code P(Binomial(n, 1/2) < k) <= 2.5%}).
   *
   * @return {median, low, high}; low and high are the extremes when there are too few rounds
   */
  static double[] medianRatio(double[][] results, int a, int b) {
    int n = results.length;
    double[] ratios = new double[n];
    for (int r = 0; r < n; r++) {
      ratios[r] = results[r][a] / results[r][b];
    }
    Arrays.sort(ratios);
    int k = Math.max(1, confidenceRank(n));
    return new double[] {Report.median(ratios), ratios[k - 1], ratios[n - k]};
  }

  /** The largest k with P(Binomial(n, 1/2) < k) <= 0.025; 0 if none. */
  static int confidenceRank(int n) {
    double below = 0; // P(X < k)
    double term = Math.pow(0.5, n); // P(X = 0)
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (below + term > 0.025) {
        break;
      }
      below += term;
      k = i + 1;
      term = term * (n - i) / (i + 1);
    }
    return k;
  }

  /**
   * Measures and prints.
   *
   * @param args rounds (default 20) and calls per slice per thread (default 5,000,000)
   * @throws Exception if a thread is interrupted
   */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int calls = args.length > 1 ? Integer.parseInt(args[1]) : 5_000_000;
    double[][] results = new ContendedPairs().measure(rounds, calls);
    for (int r = 0; r < rounds; r++) {
      StringBuilder line = new StringBuilder("round" + r + "=");
      for (int c = 0; c < CONTENDERS.length; c++) {
        line.append(c == 0 ? "" : " ")
            .append(CONTENDERS[c])
            .append(':')
            .append(String.format(Locale.ROOT, "%.1f", results[r][c]));
      }
      System.out.println(line);
    }
    System.out.printf(Locale.ROOT, "rounds=%d%n", rounds);
    print("weirToFloor", medianRatio(results, 2, 0));
    print("weirToRetryingFloor", medianRatio(results, 2, 1));
    print("retryingFloorToFloor", medianRatio(results, 1, 0));
  }

  private static void print(String name, double[] ratio) {
    System.out.printf(Locale.ROOT, "%s=%.3f%n", name, ratio[0]);
    System.out.printf(Locale.ROOT, "%sLow=%.3f%n", name, ratio[1]);
    System.out.printf(Locale.ROOT, "%sHigh=%.3f%n", name, ratio[2]);
  }
}
