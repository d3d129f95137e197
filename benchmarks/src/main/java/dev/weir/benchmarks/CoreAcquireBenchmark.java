package dev.weir.benchmarks;

import dev.weir.agent.bootstrap.BucketLimiter;
import dev.weir.agent.bootstrap.Discipline;
import dev.weir.agent.bootstrap.GcraBucket;
import dev.weir.agent.bootstrap.LimiterRegistry;
import dev.weir.agent.bootstrap.NanoClock;
import dev.weir.agent.bootstrap.WeirBridge;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * The cost of one admitted acquire on the bucket core, beside its floor: one {@link
 * System#nanoTime()} and one compare-and-set on an {@link AtomicLong} (with the read the CAS
 * needs).
 *
 * <ul>
 *   <li>{@code floor}: {@code nanoTime()} + {@code get()} + {@code compareAndSet()};
 *   <li>{@code core}: {@link GcraBucket#acquire}, the GCRA arithmetic and its CAS;
 *   <li>{@code limiter}: {@link BucketLimiter#acquire()}, what a woven method's limiter does;
 *   <li>{@code bridge}: {@link WeirBridge#acquire(int)}, the whole call a woven method makes.
 * </ul>
 *
 * <p>The bucket's rate (1e9/s, capacity 1e9) always has a permit: every call is admitted, so this
 * measures the admitted path. Threads share one bucket and one floor {@code AtomicLong}: run with
 * {@code -t 1} and {@code -t 2}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class CoreAcquireBenchmark {
  static final double RATE = 1e9;
  static final long CAPACITY = 1_000_000_000L;

  private final AtomicLong floorState = new AtomicLong();
  private GcraBucket bucket;
  private BucketLimiter limiter;
  private int limiterId;

  /** Builds one bucket, one limiter over another, and one registered limiter. */
  @Setup
  public void setUp() {
    bucket = newBucket();
    limiter = new BucketLimiter("bench", "bench", newBucket(), 1, NanoClock.SYSTEM);
    limiterId =
        LimiterRegistry.add(new BucketLimiter("bench", "bench", newBucket(), 1, NanoClock.SYSTEM));
  }

  static GcraBucket newBucket() {
    return GcraBucket.create(
        Discipline.TOKEN_BUCKET, RATE, TimeUnit.SECONDS, CAPACITY, false, 0, System.nanoTime());
  }

  /**
   * The floor.
   *
   * @return the value read, so the JIT keeps the work
   */
  @Benchmark
  public long floor() {
    return Floor.tick(floorState);
  }

  /**
   * The bucket core.
   *
   * @return 0 (admitted)
   */
  @Benchmark
  public long core() {
    return bucket.acquire(System.nanoTime(), 1, false);
  }

  /**
   * The limiter.
   *
   * @return 0 (admitted)
   */
  @Benchmark
  public long limiter() {
    return limiter.acquire();
  }

  /**
   * The bridge woven code calls.
   *
   * @return 0 (admitted)
   */
  @Benchmark
  public long bridge() {
    return WeirBridge.acquire(limiterId);
  }
}
