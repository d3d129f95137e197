package dev.weir.benchmarks;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/**
 * Two threads acquiring on one shared limiter, with the floors, Weir and every peer taking turns in
 * short slices, so that each slice of Weir has slices of the others just before and after it.
 *
 * <p>Why not JMH alone: on a small VM two threads sharing one cache line run at one of several
 * speeds (the cost of moving the line between the two virtual CPUs depends on where the host puts
 * them), and switch within seconds. JMH measures one benchmark, then the next, so a ratio of two
 * JMH averages mostly compares the speeds each happened to meet. Interleaving short slices pairs
 * like with like, as the start-up measure pairs whole-process runs. Each call is a call of the
 * {@link PeerAcquireBenchmark} method itself, in its {@code available} state (every call admitted);
 * each slice is a tight loop of one of them, warmed up first.
 *
 * <p>The rounds are not independent (a speed can last several of them), so the interval is a guide
 * rather than exact; the per-round figures are printed for that reason.
 *
 * <p>Two more contenders are the woven call itself: {@link WovenTarget#admitted} (an annotated
 * method, permits always available) and the same method unannotated, {@link WovenTarget#plain}. Run
 * under {@code -javaagent:} the built agent; {@link #main} refuses to run without it.
 *
 * <p>Prints {@code key=value} lines: for each round, the ns per call of each contender; then, for
 * Weir's core against each other contender, the median over the rounds of the ratio, with its 95%
 * interval ({@code weirTo...}, {@code ...Low}, {@code ...High}); the same for the woven call
 * against the floor and each peer ({@code wovenTo...}); and what the woven call adds to the plain
 * one beyond the floor, {@code (woven - plain) - floor} in ns per round ({@code
 * wovenAddsBeyondFloor...}).
 */
public final class ContendedPairs {
  static final String[] CONTENDERS = {
    "floor",
    "floorRetrying",
    "weir",
    "bucket4j",
    "guava",
    "resilience4j",
    "failsafe",
    "plain",
    "woven"
  };

  static final int FLOOR = 0;

  static final int WEIR = 2;

  /** The peers' indexes in {@link #CONTENDERS}: {@code PEERS_FROM} to {@code PEERS_TO - 1}. */
  static final int PEERS_FROM = 3;

  static final int PEERS_TO = 7;

  /** {@link WovenTarget#plain}: the method {@link #WOVEN} limits, without its limit. */
  static final int PLAIN = 7;

  /** {@link WovenTarget#admitted}: the whole woven call, under the agent. */
  static final int WOVEN = 8;

  private static final int THREADS = 2;

  private final PeerAcquireBenchmark limiters = new PeerAcquireBenchmark();

  private volatile long sink;

  ContendedPairs() {
    limiters.state = "available";
    limiters.setUp();
  }

  /**
   * One call of a contender.
   *
   * @param contender an index into {@link #CONTENDERS}
   * @param input the woven target's argument (the caller's loop count: no field both threads write,
   *     which would be a second contended cache line)
   * @return a value that depends on the call, so the JIT keeps it
   */
  long call(int contender, int input) {
    switch (contender) {
      case 0:
        return limiters.floor();
      case 1:
        return limiters.floorRetrying();
      case 2:
        return limiters.weir();
      case 3:
        return limiters.bucket4j() ? 1 : 0;
      case 4:
        return limiters.guava() ? 1 : 0;
      case 5:
        return limiters.resilience4j() ? 1 : 0;
      case 6:
        return limiters.failsafe() ? 1 : 0;
      case 7:
        return WovenTarget.plain(input);
      default:
        return WovenTarget.admitted(input);
    }
  }

  /**
   * Runs one slice: both threads call one contender for {@code sliceNanos}.
   *
   * @return the mean ns per call over both threads
   */
  double slice(int contender, long sliceNanos) throws Exception {
    long[] nanos = new long[THREADS];
    long[] calls = new long[THREADS];
    onTwoThreads(
        id -> {
          long begin = System.nanoTime();
          long deadline = begin + sliceNanos;
          long x = 0;
          long n = 0;
          long now;
          do {
            for (int i = 0; i < 256; i++) {
              x += call(contender, i);
            }
            n += 256;
            now = System.nanoTime();
          } while (now < deadline);
          nanos[id] = now - begin;
          calls[id] = n;
          sink = x;
        });
    return ((double) nanos[0] / calls[0] + (double) nanos[1] / calls[1]) / THREADS;
  }

  /**
   * Runs {@code body} on two new threads released together, and waits for both.
   *
   * @param body given the thread's number, 0 or 1
   * @throws Exception if the waiting thread is interrupted
   */
  static void onTwoThreads(java.util.function.IntConsumer body) throws Exception {
    CyclicBarrier start = new CyclicBarrier(THREADS + 1);
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
                body.accept(id);
              });
      threads[t].start();
    }
    start.await();
    for (Thread t : threads) {
      t.join();
    }
  }

  /**
   * Measures {@code rounds} rounds, each one slice of every contender in turn.
   *
   * @return ns per call, {@code [round][contender]}
   */
  double[][] measure(int rounds, long sliceNanos) throws Exception {
    for (int warmUp = 0; warmUp < 3; warmUp++) {
      for (int c = 0; c < CONTENDERS.length; c++) {
        slice(c, sliceNanos);
      }
    }
    double[][] results = new double[rounds][CONTENDERS.length];
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < CONTENDERS.length; i++) {
        int c = (r + i) % CONTENDERS.length; // each round starts one later: no fixed neighbours
        results[r][c] = slice(c, sliceNanos);
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
    double[][] ratios = new double[n][1];
    for (int r = 0; r < n; r++) {
      ratios[r][0] = results[r][a] / results[r][b];
    }
    return medianOf(ratios, 0);
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
   * @param args rounds (default 20) and milliseconds per slice (default 300)
   * @throws Exception if a thread is interrupted
   */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    if (rounds < 6) {
      throw new IllegalArgumentException(
          "rounds must be at least 6 for a 95% interval of the median, was " + rounds);
    }
    long sliceMillis = args.length > 1 ? Long.parseLong(args[1]) : 300;
    if (!WovenTarget.woven()) {
      throw new IllegalStateException(
          "WovenTarget is not woven: run with -javaagent:agent/target/weir-agent.jar");
    }
    double[][] results =
        new ContendedPairs().measure(rounds, TimeUnit.MILLISECONDS.toNanos(sliceMillis));
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
    System.out.printf(Locale.ROOT, "sliceMillis=%d%n", sliceMillis);
    for (int c = 0; c < PEERS_TO; c++) {
      if (c != WEIR) {
        print("weirTo" + capitalized(CONTENDERS[c]), medianRatio(results, WEIR, c));
      }
    }
    print("wovenToFloor", medianRatio(results, WOVEN, FLOOR));
    for (int c = PEERS_FROM; c < PEERS_TO; c++) {
      print("wovenTo" + capitalized(CONTENDERS[c]), medianRatio(results, WOVEN, c));
    }
    double[][] beyond = new double[rounds][1];
    for (int r = 0; r < rounds; r++) {
      beyond[r][0] = results[r][WOVEN] - results[r][PLAIN] - results[r][FLOOR];
    }
    print("wovenAddsBeyondFloor", medianOf(beyond, 0));
  }

  static String capitalized(String name) {
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }

  /**
   * The median over the rounds of {@code values[r][c]}, with its 95% interval as in {@link
   * #medianRatio}.
   *
   * @return {median, low, high}
   */
  static double[] medianOf(double[][] values, int c) {
    int n = values.length;
    double[] sorted = new double[n];
    for (int r = 0; r < n; r++) {
      sorted[r] = values[r][c];
    }
    Arrays.sort(sorted);
    int k = Math.max(1, confidenceRank(n));
    return new double[] {Score.median(sorted), sorted[k - 1], sorted[n - k]};
  }

  private static void print(String name, double[] ratio) {
    System.out.printf(Locale.ROOT, "%s=%.3f%n", name, ratio[0]);
    System.out.printf(Locale.ROOT, "%sLow=%.3f%n", name, ratio[1]);
    System.out.printf(Locale.ROOT, "%sHigh=%.3f%n", name, ratio[2]);
  }
}
