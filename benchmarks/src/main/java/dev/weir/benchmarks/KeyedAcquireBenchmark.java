package dev.weir.benchmarks;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of a per-key acquire ({@code @LimitKey}) beside the plain one, on the same limiter
 * settings: one permit a second with a burst of 1e9, so every measured call is admitted, and a key
 * visited at least once a second never goes idle (and is never dropped) while it runs.
 *
 * <ul>
 *   <li>{@code plain}: {@link BucketLimiter#acquire()}, one bucket;
 *   <li>{@code oneKey}: {@link BucketLimiter#acquire(String)}, always the same key;
 *   <li>{@code thousandKeys}, {@code millionKeys}: keys taken in turn from 1,000 or 1,000,000
 *       distinct strings made beforehand, so the table lookups miss the caches as a busy service's
 *       would.
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class KeyedAcquireBenchmark {
  private BucketLimiter limiter;
  private String[] thousand;
  private String[] million;
  private int nextOfThousand;
  int admittedInSetUp;
  private int nextOfMillion;

  /** Builds the limiter and the keys, and inserts every key once. */
  @Setup
  public void setUp() {
    BucketLimiter.setMaxKeys(2_000_000); // above the 1,001,000 keys used here
    limiter =
        new BucketLimiter(
            "keyed",
            "bench",
            GcraBucket.create(
                Discipline.TOKEN_BUCKET,
                1,
                TimeUnit.SECONDS,
                1_000_000_000L,
                false,
                0,
                System.nanoTime()),
            1,
            NanoClock.SYSTEM);
    thousand = keys(1_000);
    million = keys(1_000_000);
    admittedInSetUp = 0;
    for (String key : million) {
      admittedInSetUp += limiter.acquire(key) == 0 ? 1 : 0;
    }
    for (String key : thousand) {
      admittedInSetUp += limiter.acquire(key) == 0 ? 1 : 0;
    }
  }

  private static String[] keys(int n) {
    String[] keys = new String[n];
    for (int i = 0; i < n; i++) {
      keys[i] = (n == 1_000 ? "client-" : "user-") + i;
    }
    return keys;
  }

  /**
   * One bucket.
   *
   * @return 0 (admitted)
   */
  @Benchmark
  public long plain() {
    return limiter.acquire();
  }

  /**
   * One key.
   *
   * @return 0 (admitted)
   */
  @Benchmark
  public long oneKey() {
    return limiter.acquire("client-42");
  }

  /**
   * A thousand keys in turn.
   *
   * @return 0 (admitted)
   */
  @Benchmark
  public long thousandKeys() {
    int i = nextOfThousand++;
    if (nextOfThousand == thousand.length) {
      nextOfThousand = 0;
    }
    return limiter.acquire(thousand[i]);
  }

  /**
   * A million keys in turn.
   *
   * @return 0 (admitted)
   */
  @Benchmark
  public long millionKeys() {
    int i = nextOfMillion++;
    if (nextOfMillion == million.length) {
      nextOfMillion = 0;
    }
    return limiter.acquire(million[i]);
  }
}
