package dev.weir.agent.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * {@link SharedChargeTest}'s cases on a three-node Redis Cluster, where each limit's key lives in a
 * slot of its own and no script reaches two: the slots are charged in turn at one departure, and a
 * refusal undoes the ones charged, so every answer, wait, name and count is still the local one.
 */
class SharedChargeOnARedisClusterTest extends SharedChargeTest {
  private static int names;

  @BeforeAll
  static void start() throws Exception {
    servers = RedisServer.startCluster(3);
    List<BackendUri> uris = new ArrayList<>();
    for (RedisServer node : servers) {
      uris.add(BackendUri.parse(node.uri()));
    }
    backend = RedisBackend.start(uris, 2000, "");
    SharedBucketContractTest.awaitAnswering(backend);
  }

  /** One script call per slot. */
  @Override
  long scriptCallsFor(List<BucketLimiter> limits) {
    Set<Integer> slots = new HashSet<>();
    for (BucketLimiter l : limits) {
      slots.add(JedisClusterCRC16.getSlot(l.cluster().key(null)));
    }
    return slots.size();
  }

  @Test
  void aRefusalByOneSlotUndoesTheOther() {
    FakeClock clock = new FakeClock(TimeUnit.SECONDS.toNanos(100));
    backend.useClockForTests(clock);
    BucketLimiter a = hourly("rc-a-" + names++, 3, clock);
    BucketLimiter b = hourly("rc-b-" + names++, 5, clock);
    assertNotEquals(
        JedisClusterCRC16.getSlot(a.cluster().key(null)),
        JedisClusterCRC16.getSlot(b.cluster().key(null)),
        "the two limits' keys live in different slots");
    int x = LimiterRegistry.register("cluster-group " + names++, b);
    int y = LimiterRegistry.register("cluster-group " + names++, a);
    LimitGroup g =
        new LimitGroup("g", "Test#m()", new int[] {x, y}, new boolean[2], new boolean[2]);
    int admitted = 0;
    while (admitted < 100 && g.acquire() == Limiter.ADMITTED) {
      admitted++;
    }
    assertEquals(3, admitted);
    assertEquals(a.name(), LimitGroup.refusedBy());
    assertEquals(2, b.availablePermits(), "b's slot, charged first, was undone on a's refusal");
    assertEquals(1, a.rejected());
    assertEquals(0, b.rejected());
    assertEquals(0, a.backendFailures() + b.backendFailures());
  }

  private static BucketLimiter hourly(String name, long capacity, FakeClock clock) {
    GcraBucket bucket =
        GcraBucket.create(
            Discipline.TOKEN_BUCKET, 1, TimeUnit.HOURS, capacity, false, 0, clock.nanoTime());
    ClusterScope scope = new ClusterScope(backend, "", name, ClusterScope.OnFailure.REJECT);
    return new BucketLimiter(name, "test", bucket, 1, clock, false, scope);
  }
}
