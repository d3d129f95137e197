package dev.weir.agent.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A method whose limits include a cluster-scope one, on a real Redis (the script on the test's fake
 * clock): the cluster member holds its slot first, a refusal by either side is charged by none, and
 * the refusal names the limit that refused.
 */
class GroupWithClusterMembersTest {
  private static RedisServer redis;
  private static RedisBackend backend;
  private static int names;
  private final FakeClock clock = new FakeClock(TimeUnit.SECONDS.toNanos(100));

  @BeforeAll
  static void start() throws Exception {
    redis = RedisServer.start();
    backend = RedisBackend.start(List.of(BackendUri.parse(redis.uri())), 2000, "");
    SharedBucketContractTest.awaitAnswering(backend);
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

  private BucketLimiter limiter(String name, long capacity, boolean cluster) {
    GcraBucket bucket =
        GcraBucket.create(
            Discipline.TOKEN_BUCKET, 1, TimeUnit.HOURS, capacity, false, 0, clock.nanoTime());
    ClusterScope scope =
        cluster ? new ClusterScope(backend, "", name, ClusterScope.OnFailure.REJECT) : null;
    return new BucketLimiter(name, "test", bucket, 1, clock, false, scope);
  }

  private LimitGroup group(Limiter a, Limiter b) {
    int x = LimiterRegistry.register("group-cluster " + names++, a);
    int y = LimiterRegistry.register("group-cluster " + names++, b);
    return new LimitGroup("g", "Test#m()", new int[] {x, y}, new boolean[2], new boolean[2]);
  }

  private static int passNow(Limiter l, int max) {
    int n = 0;
    while (n < max && l.acquire() == Limiter.ADMITTED) {
      n++;
    }
    return n;
  }

  @Test
  void theClusterMemberRefusesAndTheLocalOneIsChargedNothing() {
    backend.useClockForTests(clock);
    BucketLimiter shared = limiter("gc-shared-" + names, 3, true);
    BucketLimiter local = limiter("gc-local-" + names, 5, false);
    LimitGroup g = group(shared, local);
    assertEquals(3, passNow(g, 100));
    assertEquals(shared.name(), LimitGroup.refusedBy());
    assertEquals(2, local.availablePermits(), "the local limit paid for the three admitted only");
    assertEquals(1, shared.rejected());
    assertEquals(0, local.rejected());
  }

  @Test
  void aLocalRefusalGivesTheClusterSlotBack() {
    backend.useClockForTests(clock);
    BucketLimiter shared = limiter("gc-shared2-" + names, 5, true);
    BucketLimiter local = limiter("gc-local2-" + names, 2, false);
    LimitGroup g = group(shared, local);
    assertEquals(2, passNow(g, 100));
    assertTrue(g.acquire() > 0);
    assertEquals(local.name(), LimitGroup.refusedBy());
    assertEquals(
        3, passNow(shared, 100), "Redis holds 5 less the 2 admitted: the refused went back");
    assertEquals(0, shared.backendFailures());
  }
}
