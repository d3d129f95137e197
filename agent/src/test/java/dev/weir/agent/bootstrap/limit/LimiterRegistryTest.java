package dev.weir.agent.bootstrap.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.core.GcraBucketStressTest;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class LimiterRegistryTest {
  private static Limiter limiter(String name) {
    return new RefusedLimiter(name, "Test#m()", "test");
  }

  @Test
  void equalKeysShareOneLimiter() {
    Limiter first = limiter("a");
    int id = LimiterRegistry.register("test-key-a", first);
    assertEquals(id, LimiterRegistry.register("test-key-a", limiter("a2")));
    assertSame(first, LimiterRegistry.limiter(id));
    assertNotEquals(id, LimiterRegistry.register("test-key-b", limiter("b")));
  }

  @Test
  void equalKeysRegisteredConcurrentlyGetOneId() throws Exception {
    Set<Integer> ids = ConcurrentHashMap.newKeySet();
    GcraBucketStressTest.run(() -> ids.add(LimiterRegistry.register("test-key-c", limiter("c"))));
    assertEquals(1, ids.size());
  }

  @Test
  void idsBeyondTheTableGrowItAndUnknownIdsFailClearly() {
    int last = -1;
    for (int i = 0; i < 200; i++) {
      last = LimiterRegistry.add(limiter("grow" + i));
    }
    assertEquals("grow199", LimiterRegistry.limiter(last).name());
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> LimiterRegistry.limiter(1_000_000));
    assertEquals("weir: no limiter has id 1000000", e.getMessage());
  }

  @Test
  void classLoadersGetStableNumbers() throws Exception {
    assertEquals(0, LimiterRegistry.loaderId(null));
    try (URLClassLoader one = new URLClassLoader(new URL[0]);
        URLClassLoader two = new URLClassLoader(new URL[0])) {
      int id = LimiterRegistry.loaderId(one);
      assertEquals(id, LimiterRegistry.loaderId(one));
      assertNotEquals(id, LimiterRegistry.loaderId(two));
      assertNotEquals(0, id);
    }
  }

  @Test
  void aCollectedLoadersLimitersAreDroppedAndTheirIdsReused() throws Exception {
    URLClassLoader loader = new URLClassLoader(new URL[0]);
    int owned = LimiterRegistry.register("test-owned", limiter("owned"), loader);
    int refused = LimiterRegistry.add(limiter("refused"), loader);
    int jvmWide = LimiterRegistry.register("test-jvm-wide", limiter("wide"));
    int loaderId = LimiterRegistry.loaderId(loader);
    loader.close();
    loader = null; // the only reference: the registry holds loaders weakly
    Set<Integer> loaders = new java.util.HashSet<>();
    Set<Integer> limiters = new java.util.HashSet<>(); // other tests' loaders may go too
    for (int i = 0; i < 100 && !loaders.contains(loaderId); i++) {
      System.gc();
      Thread.sleep(20);
      LimiterRegistry.Dropped d = LimiterRegistry.dropCollected();
      if (d != null) {
        loaders.addAll(d.loaderIds);
        limiters.addAll(d.limiterIds);
      }
    }
    assertTrue(loaders.contains(loaderId), "the loader was collected");
    assertTrue(limiters.containsAll(Set.of(owned, refused)), limiters.toString());
    assertTrue(!limiters.contains(jvmWide), "a JVM-wide limiter stays");
    assertThrows(IllegalStateException.class, () -> LimiterRegistry.limiter(owned));
    assertEquals("wide", LimiterRegistry.limiter(jvmWide).name(), "a JVM-wide limiter stays");
    assertEquals(null, LimiterRegistry.idOf("test-owned"), "its sharing key is forgotten");
    int reused = LimiterRegistry.add(limiter("next"));
    assertTrue(limiters.contains(reused), "a freed id is reused: " + reused);
  }

  @Test
  void redirectsSendCallsToAnOverrideAndBack() {
    Limiter own = limiter("mine");
    Limiter override = limiter("mine");
    int id = LimiterRegistry.register("test-redirect", own);
    LimiterRegistry.redirect(id, override);
    assertSame(override, LimiterRegistry.limiter(id));
    assertSame(own, LimiterRegistry.original(id));
    assertTrue(LimiterRegistry.idsNamed("mine").contains(id));
    LimiterRegistry.redirect(id, null);
    assertSame(own, LimiterRegistry.limiter(id));
  }

  @Test
  void aSupersededLimiterStaysCallableButUnlisted() {
    Limiter old = limiter("superseded");
    int id = LimiterRegistry.register("test-superseded", old);
    assertEquals(id, LimiterRegistry.supersede("test-superseded"));
    assertSame(old, LimiterRegistry.limiter(id), "code woven before still reaches it");
    assertTrue(LimiterRegistry.slots().stream().noneMatch(s -> s.id == id));
    assertNotEquals(id, LimiterRegistry.register("test-superseded", limiter("superseded")));
  }
}
