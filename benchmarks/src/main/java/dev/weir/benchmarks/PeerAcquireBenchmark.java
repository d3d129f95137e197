package dev.weir.benchmarks;

import dev.failsafe.RateLimiter;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.GcraBucket;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One non-blocking acquire of one permit: Weir's bucket core beside the limiters a user would pick
 * instead, and beside a floor of one {@link System#nanoTime()} plus one compare-and-set on an
 * {@link AtomicLong} (with the read the CAS needs).
 *
 * <ul>
 *   <li>{@code weir}: {@link GcraBucket#acquire(long, long, boolean)} with a fresh clock reading;
 *   <li>{@code bucket4j}: Bucket4j's local bucket ({@code tryConsume(1)}, lock-free by default);
 *   <li>{@code guava}: Guava's {@code RateLimiter.tryAcquire()};
 *   <li>{@code resilience4j}: Resilience4j's {@code AtomicRateLimiter.acquirePermission()} with no
 *       timeout;
 *   <li>{@code failsafe}: Failsafe's smooth {@code RateLimiter.tryAcquirePermit()}.
 * </ul>
 *
 * <p>{@code state=available}: every limiter allows about 1e9 permits a second (as close as its
 * configuration allows), so every call is admitted. {@code state=exhausted}: one permit an hour,
 * taken in set-up, so every measured call is refused. The threads of a run share one instance of
 * each limiter: run with {@code -t 1} and {@code -t 2}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class PeerAcquireBenchmark {
  /** Whether permits are available or the limiters are exhausted. */
  @Param({"available", "exhausted"})
  public String state;

  private final AtomicLong floorState = new AtomicLong();
  private final AtomicLong retryingFloorState = new AtomicLong();
  private GcraBucket weir;
  private Bucket bucket4j;
  private com.google.common.util.concurrent.RateLimiter guava;
  private AtomicRateLimiter resilience4j;
  private RateLimiter<Object> failsafe;

  /** Weir's token bucket: {@code capacity} permits refilled at {@code rate} per {@code per}. */
  private static GcraBucket weirBucket(double rate, TimeUnit per, long capacity) {
    return GcraBucket.create(
        Discipline.TOKEN_BUCKET, rate, per, capacity, false, 0, System.nanoTime());
  }

  /**
   * Bucket4j's lock-free bucket: {@code capacity} tokens refilled greedily every {@code period}.
   */
  private static Bucket bucket4jBucket(long capacity, Duration period) {
    return Bucket.builder()
        .addLimit(Bandwidth.builder().capacity(capacity).refillGreedy(capacity, period).build())
        .build();
  }

  /** Resilience4j's limiter: {@code limit} permits each {@code period}, never waiting. */
  private static AtomicRateLimiter resilience4jLimiter(int limit, Duration period) {
    return new AtomicRateLimiter(
        "bench",
        RateLimiterConfig.custom()
            .limitForPeriod(limit)
            .limitRefreshPeriod(period)
            .timeoutDuration(Duration.ZERO)
            .build());
  }

  /** Builds each limiter for the state, and empties it when the state is {@code exhausted}. */
  @Setup
  public void setUp() {
    boolean available = state.equals("available");
    if (available) {
      weir = weirBucket(1e9, TimeUnit.SECONDS, 1_000_000_000L);
      bucket4j = bucket4jBucket(1_000_000_000L, Duration.ofSeconds(1));
      guava = com.google.common.util.concurrent.RateLimiter.create(1e9);
      resilience4j = resilience4jLimiter(1_000_000, Duration.ofMillis(1));
      failsafe = RateLimiter.smoothBuilder(Duration.ofNanos(1)).build();
    } else {
      weir = weirBucket(1, TimeUnit.HOURS, 1);
      bucket4j = bucket4jBucket(1, Duration.ofHours(1));
      guava = com.google.common.util.concurrent.RateLimiter.create(1.0 / 3600);
      resilience4j = resilience4jLimiter(1, Duration.ofHours(1));
      failsafe = RateLimiter.smoothBuilder(1, Duration.ofHours(1)).build();
      weir();
      bucket4j();
      guava();
      resilience4j();
      failsafe();
    }
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
   * The floor, retrying its CAS until it succeeds as a limiter must: for scale under contention.
   *
   * @return the value replaced, so the JIT keeps the work
   */
  @Benchmark
  public long floorRetrying() {
    return Floor.tickRetrying(retryingFloorState);
  }

  /**
   * Weir's core.
   *
   * @return 0 when admitted, negative when refused
   */
  @Benchmark
  public long weir() {
    return weir.acquire(System.nanoTime(), 1, false);
  }

  /**
   * Bucket4j.
   *
   * @return whether admitted
   */
  @Benchmark
  public boolean bucket4j() {
    return bucket4j.tryConsume(1);
  }

  /**
   * Guava.
   *
   * @return whether admitted
   */
  @Benchmark
  public boolean guava() {
    return guava.tryAcquire();
  }

  /**
   * Resilience4j.
   *
   * @return whether admitted
   */
  @Benchmark
  public boolean resilience4j() {
    return resilience4j.acquirePermission();
  }

  /**
   * Failsafe.
   *
   * @return whether admitted
   */
  @Benchmark
  public boolean failsafe() {
    return failsafe.tryAcquirePermit();
  }
}
