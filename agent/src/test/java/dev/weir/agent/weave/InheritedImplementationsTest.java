package dev.weir.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.RateLimitedException;
import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.config.ConfigFile;
import dev.weir.agent.control.LimitSet;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code Type+#m} limits every call of {@code m} on an instance of the type, wherever its code is
 * declared: {@code fixtures.inherit.Inheriting} is a {@code Sink} whose {@code write} and final
 * {@code flush} are those of {@code Base}, which is no sink (the shape of a JDBC driver's statement
 * inheriting {@code executeUpdate()}). In-process, through the transformer as the JVM hands class
 * files over, on a fake clock: exact counts.
 */
class InheritedImplementationsTest {
  private static final String PKG = "fixtures.inherit.";
  private final FakeClock clock = new FakeClock(0);
  private WeirTransformer transformer;
  private ConfigLimits config;
  private TransformingLoader loader;

  @BeforeEach
  void setUp() {
    AgentLog.setLevel(AgentLog.OFF);
    ConfigFile file =
        ConfigFile.parse(
            "inherit.yaml",
            "limits:\n"
                + "  - name: inherit-writes\n"
                + "    methods: \"fixtures.inherit.Sink+#write\"\n"
                + "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }\n"
                + "  - name: inherit-flushes\n"
                + "    methods: \"fixtures.inherit.Sink+#flush\"\n"
                + "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }\n"
                + "  - name: inherit-puts\n"
                + "    methods: \"fixtures.inherit.Putter+#put(java.lang.String)\"\n"
                + "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }\n"
                + "  - name: inherit-writes-again\n"
                + "    methods: \"fixtures.inherit.Sink+#write\"\n"
                + "    tokenBucket: { rate: 1, per: HOURS, capacity: 9 }\n");
    assertTrue(file.errors().isEmpty(), file.errors().toString());
    config = ConfigLimits.of(LimitSet.register(file.limits(), clock, null));
    final ConfigLimits limits = config;
    transformer = new WeirTransformer(() -> new Weaver(clock, limits), limits, null);
    loader = new TransformingLoader(transformer, PKG);
    final TransformingLoader classes = loader;
    transformer.loadedNames((l, name) -> classes.isLoaded(name.replace('/', '.')));
  }

  @AfterEach
  void tearDown() {
    AgentLog.setLevel(AgentLog.INFO);
    LimiterRegistry.supersede("name inherit-writes");
    LimiterRegistry.supersede("name inherit-flushes");
    LimiterRegistry.supersede("name inherit-puts");
    LimiterRegistry.supersede("name inherit-writes-again");
  }

  @Test
  void anInheritedImplementationIsLimitedForInstancesOfTheTypeOnly() throws Exception {
    Object sink = loader.loadClass(PKG + "Inheriting").getConstructor().newInstance();
    Object other = loader.loadClass(PKG + "NotASink").getConstructor().newInstance();
    Method write = loader.loadClass(PKG + "Base").getMethod("write", int.class);
    Method flush = loader.loadClass(PKG + "Base").getMethod("flush");
    for (int i = 0; i < 3; i++) {
      write.invoke(sink, i);
    }
    assertEquals("inherit-writes", limitedBy(() -> write.invoke(sink, 9)).limiterName());
    for (int i = 0; i < 10; i++) {
      write.invoke(other, i); // the same code, on an instance that is no sink: free
    }
    // flush is final: no override can take it, so Base's own flush is limited for sinks
    flush.invoke(sink);
    flush.invoke(sink);
    assertEquals("inherit-flushes", limitedBy(() -> flush.invoke(sink)).limiterName());
    for (int i = 0; i < 10; i++) {
      flush.invoke(other);
    }
    assertEquals(3 + 10 + 2 + 10, bodyRuns(), "limited calls never run the body");
    assertEquals(3, limiter("inherit-writes").granted());
    assertEquals(1, limiter("inherit-writes").rejected());
    assertEquals(2, limiter("inherit-flushes").granted(), "other instances are not counted");
  }

  @Test
  void aSubtypeLoadedBeforeItsAncestorKeepsItsShapeAndTheAncestorIsWovenForIt() throws Exception {
    Class<?> inheriting = loader.loadClass(PKG + "Inheriting");
    assertThrows(
        NoSuchMethodException.class,
        () -> inheriting.getDeclaredMethod("write", int.class),
        "Base loaded after it: Base's own write is limited, for sinks");
    Object sink = inheriting.getConstructor().newInstance();
    Method write = loader.loadClass(PKG + "Base").getMethod("write", int.class);
    for (int i = 0; i < 3; i++) {
      write.invoke(sink, i);
    }
    limitedBy(() -> write.invoke(sink, 9));
  }

  @Test
  void aSiblingThatLoadedTheAncestorFirstLeavesNoGap() throws Exception {
    // NotASink loads Base before any sink exists: Base's write is not woven; the sink that loads
    // later gains an override of its own, so its first call is limited already
    Object other = loader.loadClass(PKG + "NotASink").getConstructor().newInstance();
    Class<?> inheriting = loader.loadClass(PKG + "Inheriting");
    assertEquals(inheriting, inheriting.getDeclaredMethod("write", int.class).getDeclaringClass());
    Object sink = inheriting.getConstructor().newInstance();
    Method write = loader.loadClass(PKG + "Base").getMethod("write", int.class);
    for (int i = 0; i < 3; i++) {
      write.invoke(sink, i);
    }
    limitedBy(() -> write.invoke(sink, 9));
    write.invoke(other, 1);
    assertEquals(3, limiter("inherit-writes").granted());
  }

  @Test
  void subclassesAndOverridesCallingSuperPayOncePerCall() throws Exception {
    Object grandchild = loader.loadClass(PKG + "Grandchild").getConstructor().newInstance();
    Object overriding = loader.loadClass(PKG + "Overriding").getConstructor().newInstance();
    Method write = loader.loadClass(PKG + "Base").getMethod("write", int.class);
    write.invoke(grandchild, 1);
    assertEquals(2, write.invoke(overriding, 1), "its own write ran, calling super");
    write.invoke(overriding, 1);
    limitedBy(() -> write.invoke(grandchild, 1));
    assertEquals(3, limiter("inherit-writes").granted(), "one permit a call, super included");
    assertEquals(3, bodyRuns());
  }

  @Test
  void methodsNamesTheInheritedImplementationsALimitCovers() throws Exception {
    Object sink = loader.loadClass(PKG + "Inheriting").getConstructor().newInstance();
    loader.loadClass(PKG + "Base").getMethod("flush").invoke(sink);
    List<String> writes = transformer.coverage().methodsOf(limiter("inherit-writes"));
    assertEquals(1, writes.size(), writes.toString());
    assertTrue(
        writes
            .get(0)
            .startsWith(
                "fixtures.inherit.Inheriting#write(int) (inherited from fixtures.inherit.Base)@"),
        writes.toString());
    List<String> flushes = transformer.coverage().methodsOf(limiter("inherit-flushes"));
    assertTrue(
        flushes.size() == 1
            && flushes
                .get(0)
                .startsWith(
                    "fixtures.inherit.Inheriting#flush() (inherited from fixtures.inherit.Base)"),
        flushes.toString());
    assertFalse(writes.toString().contains("NotASink"), writes.toString());
  }

  @Test
  void aBridgeToAGenericSuperclassIsLimitedWhicheverLoadsFirst() throws Exception {
    for (boolean boxFirst : new boolean[] {true, false}) {
      setUp(); // a fresh loader and limits
      if (boxFirst) {
        loader.loadClass(PKG + "Box"); // loaded before: the subtype gains an override
      }
      Object box = loader.loadClass(PKG + "StringBox").getConstructor().newInstance();
      Method put = loader.loadClass(PKG + "Putter").getMethod("put", String.class);
      put.invoke(box, "a");
      put.invoke(box, "b");
      assertEquals(
          "inherit-puts",
          limitedBy(() -> put.invoke(box, "c")).limiterName(),
          "Box first " + boxFirst);
      assertEquals(2, limiter("inherit-puts").granted(), "once a call through the bridge");
      tearDown();
    }
  }

  @Test
  void aSecondEntryReachingTheSameMethodIsReportedAsNotLimitingIt() throws Exception {
    Object sink = loader.loadClass(PKG + "Inheriting").getConstructor().newInstance();
    loader.loadClass(PKG + "Base").getMethod("write", int.class).invoke(sink, 1);
    List<String> unlimited = config.unlimited("inherit-writes-again", null);
    assertEquals(1, unlimited.size(), unlimited.toString());
    assertTrue(
        unlimited.get(0).contains("'inherit-writes' (fixtures.inherit.Sink+#write) limits it"),
        unlimited.toString());
  }

  private static BucketLimiter limiter(String name) {
    return (BucketLimiter) LimiterRegistry.limiter(LimiterRegistry.idOf("name " + name));
  }

  private int bodyRuns() throws Exception {
    return loader.loadClass(PKG + "Base").getField("bodyRuns").getInt(null);
  }

  private interface Call {
    Object run() throws Exception;
  }

  private static RateLimitedException limitedBy(Call call) {
    InvocationTargetException e = assertThrows(InvocationTargetException.class, call::run);
    assertTrue(e.getCause() instanceof RateLimitedException, e.getCause().toString());
    return (RateLimitedException) e.getCause();
  }
}
