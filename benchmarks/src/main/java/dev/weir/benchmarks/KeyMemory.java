package dev.weir.benchmarks;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import java.lang.management.ManagementFactory;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Heap retained by per-key buckets at a million keys, beside the key strings themselves, measured
 * as used heap after full collections:
 *
 * <ul>
 *   <li>{@code liveBytesPerKey}: a million keys that still limit (one call each at one permit an
 *       hour);
 *   <li>{@code idleBytesLeft}: a million keys that went idle (one call each at 1,000 permits a
 *       second) once the sweeper has run;
 *   <li>{@code baselineBytesPerKey}: a bare {@code ConcurrentHashMap<String, long[]>} of the same
 *       keys, for scale.
 * </ul>
 *
 * <p>Prints {@code key=value} lines. Run with {@code -Xmx1g}.
 */
public final class KeyMemory {
  private KeyMemory() {}

  /**
   * Measures and prints.
   *
   * @param args the number of keys, default 1,000,000
   * @throws InterruptedException if interrupted while waiting for the sweeper
   */
  public static void main(String[] args) throws InterruptedException {
    final int keyCount = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    BucketLimiter.setMaxKeys(2 * keyCount);
    String[] keys = new String[keyCount];
    for (int i = 0; i < keyCount; i++) {
      keys[i] = "client-" + i;
    }
    long before = usedAfterGc();
    BucketLimiter live = limiter(1, TimeUnit.HOURS);
    long admitted = 0;
    for (String key : keys) {
      admitted += live.acquire(key) == 0 ? 1 : 0;
    }
    long withLive = usedAfterGc();
    System.out.println("liveKeysAdmitted=" + admitted);
    System.out.printf("liveBytesPerKey=%.1f%n", (withLive - before) / (double) keyCount);
    live = null;

    long beforeIdle = usedAfterGc();
    BucketLimiter idle = limiter(1000, TimeUnit.SECONDS);
    for (String key : keys) {
      idle.acquire(key);
    }
    long heldAfterCalls = usedAfterGc() - beforeIdle;
    Thread.sleep(3_000); // every key is idle 1 ms after its call; the sweeper runs each second
    long left = usedAfterGc() - beforeIdle;
    System.out.println("idleBytesBeforeSweep=" + Math.max(0, heldAfterCalls));
    System.out.println("idleBytesLeft=" + Math.max(0, left));

    long beforeMap = usedAfterGc();
    ConcurrentHashMap<String, long[]> map = new ConcurrentHashMap<>();
    for (String key : keys) {
      map.put(key, new long[1]);
    }
    long withMap = usedAfterGc();
    System.out.printf("baselineBytesPerKey=%.1f%n", (withMap - beforeMap) / (double) keyCount);
    System.out.println("keys=" + keyCount + (map.size() == keyCount && idle != null ? "" : "?"));
  }

  private static BucketLimiter limiter(double rate, TimeUnit per) {
    return new BucketLimiter(
        "memory",
        "KeyMemory",
        GcraBucket.create(Discipline.TOKEN_BUCKET, rate, per, 1, false, 0, System.nanoTime()),
        1,
        NanoClock.SYSTEM);
  }

  static long usedAfterGc() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
