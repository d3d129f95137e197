package dev.weir.benchmarks;

import dev.weir.RateLimitedException;
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
 * A woven call beside the same plain call, in a fork started with {@code -javaagent:} the built
 * agent (pass {@code -jvmArgsAppend -javaagent:agent/target/weir-agent.jar}; set-up fails without
 * it, so no number is reported for an unwoven method).
 *
 * <ul>
 *   <li>{@code floor}: one {@code nanoTime()} and one CAS, for the goal "plain + floor + 10 ns";
 *   <li>{@code plain}: {@link WovenTarget#plain};
 *   <li>{@code admitted}: {@link WovenTarget#admitted}, permits always available;
 *   <li>{@code admittedByTwo}: {@link WovenTarget#admittedByTwo}, two limits on one method, both
 *       admitting: the goal is at most twice {@code admitted};
 *   <li>{@code rejecting}: {@link WovenTarget#refused}, every call limited, the {@code
 *       RateLimitedException} caught.
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class WovenCallBenchmark {
  private final AtomicLong floorState = new AtomicLong();
  private int x;

  /**
   * Fails unless the agent wove {@link WovenTarget}.
   *
   * @throws IllegalStateException without the agent
   */
  @Setup
  public void setUp() {
    if (!WovenTarget.woven()) {
      throw new IllegalStateException(
          "WovenTarget is not woven: run with -jvmArgsAppend -javaagent:agent/target/weir-agent.jar");
    }
  }

  /**
   * The floor.
   *
   * @return the value read
   */
  @Benchmark
  public long floor() {
    return Floor.tick(floorState);
  }

  /**
   * The plain call.
   *
   * @return its result
   */
  @Benchmark
  public int plain() {
    return WovenTarget.plain(x++);
  }

  /**
   * The woven call, admitted.
   *
   * @return its result
   */
  @Benchmark
  public int admitted() {
    return WovenTarget.admitted(x++);
  }

  /**
   * The woven call under two limits, admitted by both.
   *
   * @return its result
   */
  @Benchmark
  public int admittedByTwo() {
    return WovenTarget.admittedByTwo(x++);
  }

  /**
   * The woven call, limited: the exception is thrown and caught.
   *
   * @return the exception's retry-after
   */
  @Benchmark
  public long rejecting() {
    try {
      return WovenTarget.refused(x++);
    } catch (RateLimitedException limited) {
      return limited.retryAfterNanos();
    }
  }
}
