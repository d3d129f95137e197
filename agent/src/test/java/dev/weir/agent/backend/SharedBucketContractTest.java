package dev.weir.agent.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.config.BackendUri;
import dev.weir.redis.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract: the shared bucket (the script on a real Redis) gives the same answers as the local
 * core, call for call, at the same instants. The script takes the test's fake clock in place of
 * {@code TIME} (in whole microseconds, where both agree exactly), so each case runs at exact
 * instants on both and compares every answer and every wait.
 */
class SharedBucketContractTest {
  private static RedisServer redis;
  private static RedisBackend backend;
  private static int limiters;

  @BeforeAll
  static void start() throws Exception {
    redis = RedisServer.start();
    backend = RedisBackend.start(List.of(BackendUri.parse(redis.uri())), 2000, "");
    awaitAnswering(backend);
  }

  @AfterAll
  static void stop() {
    if (backend != null) {
      backend.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  static void awaitAnswering(RedisBackend b) throws InterruptedException {
    for (int i = 0; i < 500 && !b.answering(); i++) {
      Thread.sleep(10);
    }
    assertTrue(b.answering(), "the backend connects in the background");
  }

  /** One side of a case: a limiter and its clock. */
  static final class Side {
    final FakeClock clock = new FakeClock(0);
    final BucketLimiter limiter;
    final List<String> answers = new ArrayList<>();
    final boolean shared;
    final String key;

    /** The key expires (Redis's own expiry is real time, a minute beyond the test clock's). */
    void expire() throws java.io.IOException {
      if (shared) {
        redis.command("DEL", key);
      }
    }

    Side(Settings s, boolean shared) {
      GcraBucket bucket =
          GcraBucket.create(
              s.discipline,
              s.rate,
              s.per,
              s.capacity,
              s.wait,
              s.maxWaitNanos,
              TimeUnit.MILLISECONDS.toNanos(s.warmUpMillis),
              // a warm-up made a day ago: idle for long, as a missing key reads
              clock.nanoTime() - (s.warmUpMillis > 0 ? TimeUnit.DAYS.toNanos(1) : 0));
      this.shared = shared;
      String name = "contract-" + (++limiters);
      key = "weir:{" + name + "}";
      ClusterScope cluster =
          shared ? new ClusterScope(backend, "", name, ClusterScope.OnFailure.REJECT) : null;
      limiter = new BucketLimiter(name, "test", bucket, s.permits, clock, false, cluster);
    }

    /** Acquires at {@code atMicros}; notes the answer and the wait. */
    void acquire(long atMicros, String key) {
      acquireAt(atMicros, key);
    }

    /** As {@link #acquire}, answering what the limiter did. */
    long acquireAt(long atMicros, String key) {
      long at = TimeUnit.MICROSECONDS.toNanos(atMicros);
      clock.set(at);
      long answer = key == null ? limiter.acquire() : limiter.acquire(key);
      answers.add(
          "t="
              + atMicros
              + "us "
              + (key == null ? "" : key + " ")
              + (answer == 0 ? "admitted" : "retryAfter=" + answer + "ns")
              + (clock.nanoTime() != at ? " after waiting " + (clock.nanoTime() - at) + "ns" : ""));
      return answer;
    }

    /** Acquires {@code calls} times, each when the one before returned. */
    void serial(int calls) {
      for (int i = 0; i < calls; i++) {
        acquire(TimeUnit.NANOSECONDS.toMicros(clock.nanoTime()), null);
      }
    }

    /** Notes the probe and the permits available now. */
    void look(String what) {
      answers.add(
          what + ": probe " + limiter.probe(null) + " available " + limiter.availablePermits());
    }
  }

  static final class Settings {
    Discipline discipline = Discipline.TOKEN_BUCKET;
    double rate;
    TimeUnit per = TimeUnit.SECONDS;
    long capacity;
    long permits = 1;
    boolean wait;
    long maxWaitNanos = Long.MAX_VALUE;
    long warmUpMillis;

    Settings(double rate, long capacity) {
      this.rate = rate;
      this.capacity = capacity;
    }
  }

  /** Runs the same steps on a local and a shared limiter and compares every answer. */
  private static void same(Settings s, Consumer<Side> steps) {
    Side local = new Side(s, false);
    Side shared = backendSide(s);
    steps.accept(local);
    steps.accept(shared);
    assertEquals(String.join("\n", local.answers), String.join("\n", shared.answers));
    assertEquals(local.limiter.granted(), shared.limiter.granted(), "granted");
    assertEquals(local.limiter.rejected(), shared.limiter.rejected(), "rejected");
    assertEquals(local.limiter.waited(), shared.limiter.waited(), "waited");
    assertEquals(0, shared.limiter.backendFailures(), "no exchange failed");
  }

  private static Side backendSide(Settings s) {
    Side side = new Side(s, true);
    backend.useClockForTests(side.clock);
    return side;
  }

  private static void burst(Side side, long atMicros, int calls) {
    for (int i = 0; i < calls; i++) {
      side.acquire(atMicros, null);
    }
  }

  @Test
  void tokenBucketBurstThenRefill() {
    same(
        new Settings(10, 10),
        side -> {
          burst(side, 0, 12);
          burst(side, 50_000, 1);
          burst(side, 100_000, 2);
          burst(side, 250_000, 3);
          burst(side, 1_000_000, 11);
          burst(side, 60_000_000, 11); // idle long after the key expired: full again
        });
  }

  @Test
  void threePerSecondCapacityOneStillLimits() {
    same(
        new Settings(3, 1),
        side -> {
          burst(side, 0, 2);
          burst(side, 100_000, 1);
          burst(side, 333_333, 1);
          burst(side, 333_334, 2);
          burst(side, 700_000, 2);
        });
  }

  @Test
  void fivePerHour() {
    Settings s = new Settings(5, 5);
    s.per = TimeUnit.HOURS;
    same(
        s,
        side -> {
          burst(side, 0, 6);
          burst(side, 12L * 60 * 1_000_000, 2);
          burst(side, 36L * 60 * 1_000_000, 3);
        });
  }

  @Test
  void ratesWithoutAWholeNanosecondInterval() {
    same(new Settings(7, 3), side -> burst(side, 0, 5));
    same(
        new Settings(1.0 / 3, 2),
        side -> {
          burst(side, 0, 3);
          burst(side, 3_000_000, 2);
        });
  }

  @Test
  void permitsPerCall() {
    Settings s = new Settings(10, 10);
    s.permits = 3;
    same(
        s,
        side -> {
          burst(side, 0, 4);
          burst(side, 200_000, 1);
          burst(side, 300_000, 1);
        });
  }

  @Test
  void tokenBucketWait() {
    Settings s = new Settings(10, 10);
    s.wait = true;
    s.maxWaitNanos = TimeUnit.MILLISECONDS.toNanos(500);
    same(s, side -> burst(side, 0, 17));
  }

  @Test
  void leakyPolicing() {
    Settings s = new Settings(5, 3);
    s.discipline = Discipline.POLICING;
    same(
        s,
        side -> {
          burst(side, 0, 4);
          burst(side, 150_000, 1);
          burst(side, 200_000, 2);
        });
  }

  @Test
  void leakyShapingQueue() {
    Settings s = new Settings(10, 5);
    s.discipline = Discipline.SHAPING;
    same(
        s,
        side -> {
          burst(side, 0, 7);
          burst(side, 250_000, 3);
        });
  }

  @Test
  void leakyShapingWaitBounded() {
    Settings s = new Settings(20, 3);
    s.discipline = Discipline.SHAPING;
    s.wait = true;
    s.maxWaitNanos = TimeUnit.MILLISECONDS.toNanos(120);
    same(s, side -> burst(side, 0, 6));
  }

  @Test
  void perKeyBuckets() {
    same(
        new Settings(1, 2),
        side -> {
          for (String key : new String[] {"a", "b", "a", "a", "c", "b", "b"}) {
            side.acquire(0, key);
          }
          side.acquire(1_000_000, "a");
          side.acquire(1_000_000, "a");
        });
  }

  /** SPEC "Live control": 10/s capacity 10, 3 taken, capacity 5 and rate 5 at t. */
  @Test
  void liveChangeKeepsThePermitsOnHand() {
    same(
        new Settings(10, 10),
        side -> {
          burst(side, 0, 3);
          side.limiter.change(5, TimeUnit.SECONDS, 5, false);
          burst(side, 0, 6); // exactly 5 pass
          side.limiter.change(5, TimeUnit.SECONDS, 10, false);
          burst(side, 0, 1); // none: raising the capacity adds none
          burst(side, 200_000, 2); // the next at t + 200 ms
        });
  }

  /** Redis's clock is a wall clock: a step back beyond the margin takes the bucket as empty. */
  @Test
  void clockSteppingBack() {
    same(
        new Settings(10, 10),
        side -> {
          burst(side, 10_000_000, 10);
          burst(side, 9_500_000, 2); // back 0.5 s: within the margin, just fuller
          side.answers.add("probe " + side.limiter.probe(null));
          burst(side, 5_000_000, 2); // back 5 s: beyond it, taken as empty
          burst(side, 5_100_000, 2);
        });
  }

  @Test
  void refundAndProbe() {
    same(
        new Settings(2, 2),
        side -> {
          burst(side, 0, 2);
          side.answers.add("probe " + side.limiter.probe(null));
          side.limiter.refund(null);
          side.answers.add("probe after refund " + side.limiter.probe(null));
          burst(side, 0, 2);
          side.answers.add("available " + side.limiter.availablePermits());
          side.clock.set(TimeUnit.MILLISECONDS.toNanos(600));
          side.answers.add("available later " + side.limiter.availablePermits());
        });
  }

  // ---- warm-up (WarmUp in the script): WarmUpTest's cases, call for call on both sides ----

  private static Settings warmUp(double rate, long capacity, boolean wait, long warmUpMillis) {
    Settings s = new Settings(rate, capacity);
    s.wait = wait;
    s.warmUpMillis = warmUpMillis;
    return s;
  }

  /**
   * Guava's own test sequence (rate 2/s, warm-up 4 s; capacity 4, Guava's threshold), as {@code
   * WarmUpTest.guavaTestWarmUpSequence}: 1375, 1125, 875, 625 and 500 ms from cold, the same after
   * idling the warm-up period, and the burst of a warm bucket.
   */
  @Test
  void warmUpGuavaSequence() {
    same(
        warmUp(2, 4, true, 4000),
        side -> {
          side.serial(8);
          side.clock.advance(TimeUnit.SECONDS.toNanos(4));
          side.serial(8);
          side.clock.advance(TimeUnit.SECONDS.toNanos(2));
          side.serial(8);
        });
    Side shared = backendSide(warmUp(2, 4, true, 4000));
    shared.serial(6);
    assertEquals(
        List.of(
            "t=0us admitted",
            "t=0us admitted after waiting 1125000000ns",
            "t=1125000us admitted after waiting 875000000ns",
            "t=2000000us admitted after waiting 625000000ns",
            "t=2625000us admitted after waiting 500000000ns",
            "t=3125000us admitted after waiting 500000000ns"),
        shared.answers,
        "a new key is idle for long: its first call's 1375 ms were paid by that idle time, and"
            + " each later call waits its own cost (Guava's R0.00, R1.38, R1.13, R0.88, R0.63,"
            + " R0.50 make each call pay for the one before)");
  }

  /** A rejecting caller retrying at its retry-after: admitted at the instants a waiter is. */
  @Test
  void warmUpRejectingCallerRetriesAtItsRetryAfter() {
    same(
        warmUp(2, 4, false, 4000),
        side -> {
          long at = 0;
          for (int admitted = 0, calls = 0; admitted < 6 && calls < 40; calls++) {
            long answer = side.acquireAt(at, null);
            if (answer == 0) {
              admitted++;
            } else {
              at += TimeUnit.NANOSECONDS.toMicros(answer);
            }
          }
        });
  }

  /** 100/s, warm-up 10 s: the ramp of 500 permits, then idling part way and a live change. */
  @Test
  void warmUpRampPartialCoolingAndALiveChange() {
    same(
        warmUp(100, 100, true, 10_000),
        side -> {
          side.serial(300);
          side.clock.advance(TimeUnit.MILLISECONDS.toNanos(1500)); // part way back up the zone
          side.serial(50);
          side.look("part cold");
          side.limiter.change(50, TimeUnit.SECONDS, 100, false); // the cold level carried
          side.serial(50);
          side.clock.advance(TimeUnit.SECONDS.toNanos(30));
          side.look("idle");
          side.serial(3);
        });
  }

  /** Probes and views of a cold bucket, a refund it keeps, and three permits a call. */
  @Test
  void warmUpProbesViewsRefundsAndPermitsPerCall() {
    Settings s = warmUp(10, 10, false, 2000);
    s.permits = 3;
    same(
        s,
        side -> {
          side.look("new");
          burst(side, 0, 2);
          side.look("after a refused call");
          burst(side, 900_000, 2);
          side.limiter.refund(null); // kept: a warm-up keeps its charge
          side.look("after a refund");
          burst(side, 1_500_000, 2);
          burst(side, 60_000_000, 4);
          side.look("a minute later");
        });
  }

  @Test
  void warmUpClockSteppingBack() {
    same(
        warmUp(10, 10, false, 2000),
        side -> {
          burst(side, 0, 1); // both new at 0 (a key is new at its first call, a local limiter
          // at its creation)
          burst(side, 10_000_000, 3);
          burst(side, 10_300_000, 3);
          burst(side, 5_000_000, 2); // back 5 s: empty and fully cold
          burst(side, 5_400_000, 2);
        });
  }

  /**
   * The script's exact multiply-divide, run in Redis's own Lua on products far beyond 2^53 (where a
   * double's {@code ceil(a * b / c)} is off, as the last case shows), against exact arithmetic.
   */
  @Test
  void warmUpArithmeticIsExactBeyondADoublesMantissa() throws Exception {
    String source = GcraScript.SOURCE;
    int from = source.indexOf("local function mulDiv");
    String function = source.substring(from, source.indexOf("\nend\n", from) + 5);
    String script =
        function
            + "local q, r = mulDiv(tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))\n"
            + "return string.format('%.0f %.0f', q, r)";
    java.util.Random random = new java.util.Random(23);
    List<long[]> cases = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      long c = 1 + (random.nextLong() >>> 14); // below 2^50
      long a = 1 + Math.floorMod(random.nextLong(), c); // take <= U
      long b = Math.floorMod(random.nextLong(), 2 * c); // u + u0 <= 2U
      cases.add(new long[] {a, b, c});
    }
    long[] naiveWrong = {1125899906842597L, 2251799813685191L, 1125899906842621L};
    cases.add(naiveWrong);
    String[][] commands = new String[cases.size()][];
    for (int i = 0; i < commands.length; i++) {
      long[] x = cases.get(i);
      commands[i] =
          new String[] {
            "EVAL", script, "0", Long.toString(x[0]), Long.toString(x[1]), Long.toString(x[2])
          };
    }
    List<String> replies = redis.commands(commands);
    for (int i = 0; i < commands.length; i++) {
      long[] x = cases.get(i);
      java.math.BigInteger[] qr =
          java.math.BigInteger.valueOf(x[0])
              .multiply(java.math.BigInteger.valueOf(x[1]))
              .divideAndRemainder(java.math.BigInteger.valueOf(x[2]));
      String reply = replies.get(i);
      assertEquals(
          qr[0] + " " + qr[1],
          reply.substring(reply.indexOf(' ') + 1),
          "floor and remainder of " + x[0] + " * " + x[1] + " / " + x[2]);
    }
    double naive = Math.ceil((double) naiveWrong[0] * naiveWrong[1] / naiveWrong[2]);
    java.math.BigInteger exact =
        java.math.BigInteger.valueOf(naiveWrong[0])
            .multiply(java.math.BigInteger.valueOf(naiveWrong[1]))
            .add(java.math.BigInteger.valueOf(naiveWrong[2] - 1))
            .divide(java.math.BigInteger.valueOf(naiveWrong[2]));
    assertTrue(exact.doubleValue() != naive, "the last case is one a double gets wrong: " + naive);
  }

  /**
   * 1/s with a 20 s warm-up: the cold cost's product passes a long (2^63) on the local side too.
   */
  @Test
  void warmUpCostsBeyondALong() {
    same(warmUp(1, 5, true, 20_000), side -> side.serial(12));
    same(warmUp(3, 5, true, 7000), side -> side.serial(12));
  }

  /** A live change on a fully cold limiter: a rejected caller is admitted at its retry-after. */
  @Test
  void warmUpLiveChangeOnAColdLimiterKeepsItsRetryAfter() {
    same(
        warmUp(10, 10, false, 2000),
        side -> {
          side.acquireAt(0, null);
          side.clock.set(TimeUnit.SECONDS.toNanos(60)); // fully cold again
          side.limiter.change(10, TimeUnit.SECONDS, 5, false);
          long at = 60_000_000;
          for (int i = 0; i < 6; i++) {
            long answer = side.acquireAt(at, null);
            at += answer == 0 ? 0 : (answer + 999) / 1000;
          }
        });
  }

  /** A live change's conversion, a product of two durations beyond 2^53, is exact on Redis. */
  @Test
  void liveChangeConversionIsExact() {
    same(
        new Settings(2.0 / 3, 2),
        side -> {
          burst(side, 0, 1);
          side.limiter.change(6, TimeUnit.SECONDS, 5, false);
          side.look("after the change");
          burst(side, 0, 2);
        });
  }

  /**
   * Calls further apart than the key's expiry (here: the key deleted as Redis would expire it) find
   * a limiter idle for long, as the local one is, and never a new one that refuses them forever.
   */
  @Test
  void warmUpCallsFurtherApartThanTheExpiry() {
    same(
        warmUp(10, 1, false, 1000),
        side -> {
          for (int i = 0; i < 5; i++) {
            side.acquireAt(i * 10_000_000L, null);
            side.acquireAt(i * 10_000_000L, null);
            try {
              side.expire();
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
        });
  }

  /**
   * A key holding what no write of Weir's makes (Lua's tonumber takes nan, inf, hex and exponents)
   * fails that key's calls by its onBackendFailure, never admits past the limit, and never marks
   * the backend down.
   */
  @Test
  void warmUpForeignValuesFailTheirKeyOnly() throws Exception {
    String[] foreign = {
      "0 0|1 100000000 1000000000 1000000000|nan",
      "nan nan|1 100000000 1000000000 1000000000|0",
      "0 -nan|1 100000000 1000000000 1000000000|0",
      "0 0|1 100000000 1000000000 1000000000|1e300",
      "0 0x10|1 100000000 1000000000 1000000000|0",
      "inf 0|1 100000000 1000000000 1000000000|0",
      "0 0|1 100000000 1000000000 1000000000|" + "9".repeat(400),
      "0 0|1 100000000 1000000000 0|5",
      "0 0|1 0 1000000000|5",
    };
    for (String value : foreign) {
      Side side = backendSide(warmUp(10, 10, false, 2000));
      redis.commands(new String[] {"SET", side.key, value});
      long admitted = 0;
      for (int i = 0; i < 30; i++) {
        if (side.acquireAt(0, null) == 0) {
          admitted++;
        }
      }
      assertTrue(admitted <= 10, admitted + " admitted at one instant from " + value);
      assertTrue(backend.answering(), "the backend stays up after " + value);
      Side other = backendSide(new Settings(10, 10));
      assertEquals(0, other.acquireAt(0, null), "another limit is served after " + value);
    }
  }
}
