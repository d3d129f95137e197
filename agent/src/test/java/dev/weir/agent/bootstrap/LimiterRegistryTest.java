package dev.weir.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
