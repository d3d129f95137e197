package dev.weir.benchmarks;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
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
 * What the operator's counts cost on the keyless acquire: the limiter a woven method calls ({@link
 * BucketLimiter#acquire()}: a clock read, the core's CAS, and a {@code LongAdder} increment of the
 * granted or rejected count), beside the core alone ({@link GcraBucket#acquire(long, long,
 * boolean)} with a clock read, no counts) and the floor ({@code System.nanoTime()} and one CAS).
 * States as in {@link PeerAcquireBenchmark}; run with {@code -t 1} and {@code -t 2}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class CountedAcquireBenchmark {
  /** Whether permits are available or the limiters are exhausted. */
  @Param({"available", "exhausted"})
  public String state;

  private final AtomicLong floorState = new AtomicLong();
  private GcraBucket core;
  private BucketLimiter counted;

  /** Builds the bucket and the limiter, and empties them when the state is {@code exhausted}. */
  @Setup
  public void setUp() {
    boolean available = state.equals("available");
    double rate = available ? 1e9 : 1;
    TimeUnit per = available ? TimeUnit.SECONDS : TimeUnit.HOURS;
    long capacity = available ? 1_000_000_000L : 1;
    core =
        GcraBucket.create(
            Discipline.TOKEN_BUCKET, rate, per, capacity, false, 0, System.nanoTime());
    counted =
        new BucketLimiter(
            "bench",
            "Bench#m()",
            GcraBucket.create(
                Discipline.TOKEN_BUCKET, rate, per, capacity, false, 0, System.nanoTime()),
            1,
            NanoClock.SYSTEM);
    if (!available) {
      core();
      counted();
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
   * The core alone, counting nothing.
   *
   * @return 0 when admitted, negative when refused
   */
  @Benchmark
  public long core() {
    return core.acquire(System.nanoTime(), 1, false);
  }

  /**
   * The limiter woven code calls, counting each call.
   *
   * @return 0 when admitted, the retry-after when refused
   */
  @Benchmark
  public long counted() {
    return counted.acquire();
  }
}
