package dev.weir.agent.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.LimitGroup;
import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.config.BackendUri;
import dev.weir.redis.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Several cluster limits on one call, on a three-node Redis Cluster, where each limit's key lives
 * in a slot of its own and no script can reach two: each limit is reserved in turn and a refusal
 * releases the others (SPEC), so a refused call is still charged on none, with exact totals under
 * eight threads (the script on the test's fake clock).
 */
class SharedChargeOnARedisClusterTest {
  private static List<RedisServer> nodes = new ArrayList<>();
  private static RedisBackend backend;
  private static int names;
  private final FakeClock clock = new FakeClock(TimeUnit.SECONDS.toNanos(100));

  @BeforeAll
  static void start() throws Exception {
    nodes = RedisServer.startCluster(3);
    List<BackendUri> uris = new ArrayList<>();
    for (RedisServer node : nodes) {
      uris.add(BackendUri.parse(node.uri()));
    }
    backend = RedisBackend.start(uris, 2000, "");
    SharedBucketContractTest.awaitAnswering(backend);
  }

  @AfterAll
  static void stop() {
    if (backend != null) {
      backend.close();
    }
    for (RedisServer node : nodes) {
      node.close();
    }
  }

  @BeforeEach
  void onTheFakeClock() {
    backend.useClockForTests(clock);
  }

  private BucketLimiter limiter(String name, long capacity) {
    GcraBucket bucket =
        GcraBucket.create(
            Discipline.TOKEN_BUCKET, 1, TimeUnit.HOURS, capacity, false, 0, clock.nanoTime());
    ClusterScope scope = new ClusterScope(backend, "", name, ClusterScope.OnFailure.REJECT);
    return new BucketLimiter(name, "test", bucket, 1, clock, false, scope);
  }

  private LimitGroup group(BucketLimiter a, BucketLimiter b) {
    int x = LimiterRegistry.register("cluster-group " + names++, a);
    int y = LimiterRegistry.register("cluster-group " + names++, b);
    return new LimitGroup("g", "Test#m()", new int[] {x, y}, new boolean[2], new boolean[2]);
  }

  @Test
  void aRefusalByOneLimitReleasesTheOther() {
    BucketLimiter a = limiter("rc-a-" + names, 3);
    BucketLimiter b = limiter("rc-b-" + names, 5);
    assertNotEquals(
        JedisClusterCRC16.getSlot(a.cluster().key(null)),
        JedisClusterCRC16.getSlot(b.cluster().key(null)),
        "the two limits' keys live in different slots");
    LimitGroup g = group(a, b);
    int admitted = 0;
    while (admitted < 100 && g.acquire() == Limiter.ADMITTED) {
      admitted++;
    }
    assertEquals(3, admitted);
    assertEquals(a.name(), LimitGroup.refusedBy());
    assertEquals(2, b.availablePermits(), "the refused call's reservation on b was released");
    assertEquals(1, a.rejected());
    assertEquals(0, b.rejected());
    assertEquals(0, a.backendFailures() + b.backendFailures());
  }

  @Test
  void eightThreadsGiveExactTotals() throws Exception {
    BucketLimiter a = limiter("rc-8a-" + names, 40);
    BucketLimiter b = limiter("rc-8b-" + names, 100);
    LimitGroup g = group(a, b);
    long[] admitted = SharedChargeTest.race(g, b);
    assertTrue(admitted[0] <= 40, admitted[0] + " admitted by both limits");
    assertEquals(100, admitted[0] + admitted[1], "each permit of the shared limit taken once");
    assertEquals(40 - admitted[0], a.availablePermits());
    assertEquals(0, b.availablePermits());
    assertEquals(0, a.backendFailures() + b.backendFailures());
  }
}
