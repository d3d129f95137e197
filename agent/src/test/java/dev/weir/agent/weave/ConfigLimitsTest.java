package dev.weir.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.backend.BackendSettings;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.config.ConfigFile;
import dev.weir.agent.control.LimitSet;
import dev.weir.redis.RedisServer;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code Type+} patterns follow each class loader's own view of a class name; what a pattern
 * matched that Weir cannot limit is reported once per pattern.
 */
class ConfigLimitsTest {
  private static ConfigLimits subtypesOfSvc() {
    ConfigFile file =
        ConfigFile.parse(
            "test.yaml",
            "limits:\n"
                + "  - name: svc\n"
                + "    methods: \"q.Svc+#get\"\n"
                + "    tokenBucket: { rate: 1 }\n");
    assertTrue(file.errors().isEmpty(), file.errors().toString());
    return ConfigLimits.of(LimitSet.register(file.limits(), new FakeClock(0), null));
  }

  @Test
  void loadedClassesNeedNoWalkUntilATypePlusTypeIsAmongThem() {
    ConfigLimits config = subtypesOfSvc();
    assertFalse(config.anyRootAmong(new Class<?>[] {String.class, Runnable.class, int[].class}));
    ConfigFile file =
        ConfigFile.parse(
            "test.yaml",
            "limits:\n"
                + "  - name: tasks\n"
                + "    methods: \"java.lang.Runnable+#run\"\n"
                + "    tokenBucket: { rate: 1 }\n");
    ConfigLimits tasks = ConfigLimits.of(LimitSet.register(file.limits(), new FakeClock(0), null));
    assertTrue(tasks.anyRootAmong(new Class<?>[] {String.class, Runnable.class}));
    assertFalse(tasks.anyRootAmong(new Class<?>[] {String.class, Thread.class}));
    assertFalse(
        ConfigLimits.NONE.anyRootAmong(new Class<?>[] {Runnable.class}), "no Type+ pattern");
  }

  @Test
  void aClassOfTheSameNameInAnotherLoaderIsNotTakenForASubtype() {
    ConfigLimits config = subtypesOfSvc();
    ClassLoader a = new ClassLoader(null) {};
    ClassLoader b = new ClassLoader(null) {};
    assertTrue(config.noteSupertypes("q/Foo", new String[] {"java/lang/Object", "q/Svc"}, a));
    assertFalse(config.noteSupertypes("q/Foo", new String[] {"java/lang/Object"}, b));
    assertNotNull(config.match("q.Foo", "get", Collections.<String>emptyList(), a));
    assertNull(
        config.match("q.Foo", "get", Collections.<String>emptyList(), b),
        "b's q.Foo does not implement q.Svc");
    assertTrue(config.mayMatchType("q.Foo", a));
    assertFalse(config.mayMatchType("q.Foo", b));
    assertNotNull(
        config.match("q.Svc", "get", Collections.<String>emptyList(), b),
        "the pattern's own type matches in any loader");
  }

  @Test
  void aSubclassOfASubtypeInAnotherLoaderFollowsThatLoadersAncestors() {
    ConfigLimits config = subtypesOfSvc();
    ClassLoader a = new ClassLoader(null) {};
    ClassLoader b = new ClassLoader(null) {};
    assertTrue(config.noteSupertypes("q/Base", new String[] {"java/lang/Object", "q/Svc"}, a));
    assertFalse(config.noteSupertypes("q/Base", new String[] {"java/lang/Object"}, b));
    // q/Leaf extends q/Base in both: each follows its own loader's q/Base
    assertTrue(config.noteSupertypes("q/Leaf", new String[] {"q/Base"}, a));
    assertFalse(config.noteSupertypes("q/Leaf", new String[] {"q/Base"}, b));
    assertNotNull(config.match("q.Leaf", "get", Collections.<String>emptyList(), a));
    assertNull(config.match("q.Leaf", "get", Collections.<String>emptyList(), b));
  }

  /**
   * The patterns are looked up by class (by name, by the packages before a wildcard, by {@code
   * Type+} family), and the first in the file still wins whichever list holds it.
   */
  @Test
  void aClassFindsItsPatternsByNameAndTheFirstInTheFileWins() {
    ConfigFile file =
        ConfigFile.parse(
            "test.yaml",
            "limits:\n"
                + "  - name: any-repository\n"
                + "    methods: \"com.acme.*Repository#save*\"\n"
                + "    tokenBucket: { rate: 1 }\n"
                + "  - name: orders\n"
                + "    methods: [\"com.acme.OrderRepository#save\", \"com.acme.OrderRepository#find\"]\n"
                + "    tokenBucket: { rate: 1 }\n"
                + "  - name: stores\n"
                + "    methods: \"com.acme.Store+#find\"\n"
                + "    tokenBucket: { rate: 1 }\n"
                + "  - name: everywhere\n"
                + "    methods: [\"*.*.*Repository#count\", \"*Main#main\"]\n"
                + "    tokenBucket: { rate: 1 }\n");
    assertTrue(file.errors().isEmpty(), file.errors().toString());
    ConfigLimits config = ConfigLimits.of(LimitSet.register(file.limits(), new FakeClock(0), null));
    ClassLoader loader = new ClassLoader(null) {};
    assertTrue(
        config.noteSupertypes(
            "com/acme/OrderRepository",
            new String[] {"java/lang/Object", "com/acme/Store"},
            loader));
    List<String> none = Collections.emptyList();
    assertEquals(
        "any-repository",
        config.match("com.acme.OrderRepository", "save", none, loader).name,
        "the wildcard comes first in the file");
    assertEquals("orders", config.match("com.acme.OrderRepository", "find", none, loader).name);
    assertEquals(
        "everywhere", config.match("com.acme.OrderRepository", "count", none, loader).name);
    assertEquals("stores", config.match("com.acme.Store", "find", none, null).name);
    assertEquals("everywhere", config.match("Main", "main", none, null).name, "no package");
    assertNull(config.match("demo.app.Main", "main", none, null), "*Main names no package");
    assertNull(
        config.match("com.acme.sub.OrderRepository", "save", none, loader),
        "a * never matches a .");
    assertNull(config.match("com.acme.OrderRepository", "delete", none, loader));
    assertTrue(config.mayMatchType("com.acme.UserRepository", null));
    assertFalse(config.mayMatchType("com.acme.User", null));
    assertFalse(config.mayMatchType("org.other.Thing", null));
    assertEquals(
        List.of("stores"),
        config.familiesOf("com.acme.OrderRepository", loader).stream()
            .map(e -> e.name)
            .collect(java.util.stream.Collectors.toList()));
    assertTrue(config.familiesOf("com.acme.OrderRepository", null).isEmpty(), "another loader");
  }

  @Test
  void methodsAPatternMatchedThatWeirCannotLimitAreReportedOnceInOneLine() {
    ConfigLimits config = subtypesOfSvc();
    ConfigLimits.Entry entry = config.match("q.Svc", "get", Collections.<String>emptyList(), null);
    assertEquals(Collections.emptyList(), config.refusalReports(0), "nothing refused yet");
    for (int i = 0; i < 1605; i++) {
      entry.refuse("q.Impl" + i + "#get()", i == 1 ? "another reason" : "a reason");
    }
    assertEquals(
        Collections.emptyList(),
        config.refusalReports(60_000_000_000L),
        "not reported before more refusals of the same burst have had time to come");
    List<String> lines = config.refusalReports(0);
    assertEquals(
        List.of(
            "test.yaml:2: the pattern q.Svc+#get of 'svc' matched 1605 methods that Weir cannot"
                + " limit; they run unlimited: q.Impl0#get() (a reason); q.Impl1#get() (another"
                + " reason); and 1603 more (java -jar weir-agent.jar methods PID svc lists them)"),
        lines);
    entry.refuse("q.Late#get()", "a reason");
    assertEquals(Collections.emptyList(), config.refusalReports(0), "once per pattern");
    List<String> unlimited = config.unlimited("svc", null);
    assertEquals(ConfigLimits.MAX_REFUSALS_KEPT + 1, unlimited.size(), "kept, then counted");
    assertEquals("q.Svc+#get: q.Impl1#get(): another reason", unlimited.get(1));
    assertEquals(
        "q.Svc+#get: and "
            + (1606 - ConfigLimits.MAX_REFUSALS_KEPT)
            + " more methods Weir"
            + " cannot limit",
        unlimited.get(ConfigLimits.MAX_REFUSALS_KEPT));
  }

  @Test
  void aMethodMetAgainIsRefusedOnce() {
    ConfigLimits config = subtypesOfSvc();
    ConfigLimits.Entry entry = config.match("q.Svc", "get", Collections.<String>emptyList(), null);
    entry.refuse("q.A#get()", "a reason");
    entry.refuse("q.A#get()", "a reason"); // its class woven again
    assertEquals(List.of("q.Svc+#get: q.A#get(): a reason"), config.unlimited("svc", null));
    assertTrue(config.refusalReports(0).get(0).contains("matched 1 method that"));
  }

  @Test
  void aPatternThatMatchedNothingNamesTheClosestLoadedClass() {
    ConfigFile file =
        ConfigFile.parse(
            "test.yaml",
            "limits:\n"
                + "  - name: typo\n"
                + "    methods: \"java.util.concurrent.ConcurrentHashMpa#get\"\n"
                + "    tokenBucket: { rate: 1 }\n"
                + "  - name: method-typo\n"
                + "    methods: \"java.util.concurrent.ConcurrentHashMap#gte\"\n"
                + "    tokenBucket: { rate: 1 }\n"
                + "  - name: far\n"
                + "    methods: \"com.example.Unknown#x\"\n"
                + "    tokenBucket: { rate: 1 }\n");
    ConfigLimits config = ConfigLimits.of(LimitSet.register(file.limits(), new FakeClock(0), null));
    Class<?>[] loaded = {
      String.class, java.util.concurrent.ConcurrentHashMap.class, java.util.HashMap.class
    };
    assertEquals(
        List.of(
            "java.util.concurrent.ConcurrentHashMpa#get: matched no method yet; the closest loaded"
                + " class is java.util.concurrent.ConcurrentHashMap"),
        config.unlimited("typo", loaded));
    String methodHint = config.unlimited("method-typo", loaded).get(0);
    assertTrue(
        methodHint.startsWith(
            "java.util.concurrent.ConcurrentHashMap#gte: matched no method yet;"
                + " java.util.concurrent.ConcurrentHashMap is loaded, and its closest method is"
                + " get(java.lang.Object)"),
        methodHint);
    assertEquals(
        List.of("com.example.Unknown#x: matched no method yet"), config.unlimited("far", loaded));
    assertTrue(
        config
            .unused(loaded)
            .get(0)
            .endsWith(
                "has matched no method yet (the closest loaded class is"
                    + " java.util.concurrent.ConcurrentHashMap)"),
        config.unused(loaded).toString());
  }

  @Test
  void twoExamplesForTheSameReasonShareIt() {
    ConfigLimits config = subtypesOfSvc();
    ConfigLimits.Entry entry = config.match("q.Svc", "get", Collections.<String>emptyList(), null);
    entry.refuse("q.A#get()", "Weir uses it");
    entry.refuse("q.B#get()", "Weir uses it");
    assertEquals(
        List.of(
            "test.yaml:2: the pattern q.Svc+#get of 'svc' matched 2 methods that Weir cannot"
                + " limit; they run unlimited: q.A#get() and q.B#get() (Weir uses it)"),
        config.refusalReports(0));
  }

  @Test
  void anHttpEntryInAJvmWithoutAServletContainerIsReported() throws Exception {
    ConfigFile file =
        ConfigFile.parse(
            "web.yaml",
            "limits:\n"
                + "  - name: api-web-warn\n"
                + "    http: { paths: \"/api/**\" }\n"
                + "    tokenBucket: { rate: 1 }\n");
    assertTrue(file.errors().isEmpty(), file.errors().toString());
    ConfigLimits config = ConfigLimits.of(LimitSet.register(file.limits(), new FakeClock(0), null));
    java.lang.reflect.Field seen = ServletGate.class.getDeclaredField("containerSeen");
    seen.setAccessible(true);
    boolean before = seen.getBoolean(null);
    try {
      seen.setBoolean(null, false);
      assertEquals(
          List.of(
              "web.yaml:2: the http entry 'api-web-warn' has reached no request yet: no servlet"
                  + " container has loaded in this JVM (no class calling a javax.servlet or"
                  + " jakarta.servlet servlet's service or filter's doFilter), so it limits"
                  + " nothing"),
          config.unused(null));
      seen.setBoolean(null, true); // a container's code was woven: the entry can apply
      assertTrue(config.unused(null).isEmpty(), config.unused(null).toString());
    } finally {
      seen.setBoolean(null, before);
      LimiterRegistry.supersede("name api-web-warn");
    }
  }

  @Test
  void aReloadThatKeepsAnEntryKeepsWhatWeavingNotedOfIt() {
    ConfigLimits config = subtypesOfSvc();
    ClassLoader a = new ClassLoader(null) {};
    assertTrue(config.noteSupertypes("q/Foo", new String[] {"java/lang/Object", "q/Svc"}, a));
    config.match("q.Foo", "get", Collections.<String>emptyList(), a).matched = true;
    assertTrue(config.unused(null).isEmpty());
    ConfigFile again =
        ConfigFile.parse(
            "test.yaml",
            "limits:\n"
                + "  - name: svc\n"
                + "    methods: \"q.Svc+#get\"\n"
                + "    tokenBucket: { rate: 2 }\n");
    LimitSet.Reload reload = config.registered().reload(again.limits(), new FakeClock(0), null);
    ConfigLimits next = config.next(reload);
    assertEquals(
        List.of("'svc' changed: token bucket 2.0/SECONDS capacity 2 permits 1 REJECT"),
        reload.changes);
    assertFalse(reload.patternsChanged, "no class is woven again");
    assertTrue(next.unused(null).isEmpty(), "its pattern matched, as before: " + next.unused(null));
    assertTrue(next.mayMatchType("q.Foo", a), "the Type+ families are kept");
  }

  private static ConfigFile clusterFile(int port, String scope, double rate) {
    ConfigFile file =
        ConfigFile.parse(
            "test.yaml",
            "backend: redis://127.0.0.1:"
                + port
                + "\nlimits:\n"
                + "  - name: reload-cluster\n"
                + "    methods: \"q.Pay#charge\"\n"
                + "    tokenBucket: { rate: "
                + rate
                + ", capacity: 5 }\n"
                + "    scope: "
                + scope
                + "\n");
    assertTrue(file.errors().isEmpty(), file.errors().toString());
    return file;
  }

  private static BucketLimiter reloadCluster() {
    return (BucketLimiter) LimiterRegistry.limiter(LimiterRegistry.idOf("name reload-cluster"));
  }

  /**
   * A reload moves a limit into cluster scope and out (a new limiter: its bucket is elsewhere),
   * changes a cluster limit's rate live (the same limiter), and replaces it when the backend
   * changes; the connection is kept while the backend settings are.
   */
  @Test
  void reloadsMoveALimitIntoAndOutOfClusterScope() throws Exception {
    try (RedisServer one = RedisServer.start();
        RedisServer two = RedisServer.start()) {
      FakeClock clock = new FakeClock(0);
      ConfigFile local = clusterFile(one.port(), "local", 1);
      LimitSet config = LimitSet.register(local.limits(), clock, BackendSettings.of(local));
      assertEquals("local", reloadCluster().scope());

      ConfigFile cluster = clusterFile(one.port(), "cluster", 1);
      LimitSet.Reload r = config.reload(cluster.limits(), clock, BackendSettings.of(cluster));
      assertEquals(
          List.of(
              "'reload-cluster' replaced: token bucket 1.0/SECONDS capacity 5 permits 1 REJECT"
                  + " cluster"),
          r.changes);
      assertTrue(config.backend() == r.next.backend(), "the same backend keeps its connection");
      BucketLimiter shared = reloadCluster();
      for (int i = 0; i < 300 && !shared.scope().equals("cluster"); i++) {
        Thread.sleep(10);
      }
      assertEquals("cluster", shared.scope());
      assertEquals(0, shared.acquire());
      assertEquals(":1", one.command("EXISTS", "weir:{reload-cluster}"));

      ConfigFile faster = clusterFile(one.port(), "cluster", 2);
      LimitSet.Reload live = r.next.reload(faster.limits(), clock, BackendSettings.of(faster));
      assertEquals(
          List.of(
              "'reload-cluster' changed: token bucket 2.0/SECONDS capacity 5 permits 1 REJECT"
                  + " cluster"),
          live.changes);
      assertTrue(shared == reloadCluster(), "a live change keeps the limiter");

      ConfigFile moved = clusterFile(two.port(), "cluster", 2);
      LimitSet.Reload elsewhere =
          live.next.reload(moved.limits(), clock, BackendSettings.of(moved));
      assertEquals(1, elsewhere.changes.size());
      assertTrue(elsewhere.changes.get(0).startsWith("'reload-cluster' replaced"));
      assertTrue(live.next.backend() != elsewhere.next.backend(), "another backend");
      live.next.backend().close();
      BucketLimiter there = reloadCluster();
      for (int i = 0; i < 300 && !there.scope().equals("cluster"); i++) {
        Thread.sleep(10);
      }
      assertEquals(0, there.acquire());
      assertEquals(":1", two.command("EXISTS", "weir:{reload-cluster}"));

      ConfigFile back = clusterFile(two.port(), "local", 2);
      LimitSet.Reload out = elsewhere.next.reload(back.limits(), clock, BackendSettings.of(back));
      assertTrue(
          out.changes.get(0).startsWith("'reload-cluster' replaced"), out.changes.toString());
      assertEquals("local", reloadCluster().scope());
      out.next.backend().close();
    }
  }

  @Test
  void aReloadThatChangesWarmUpMillisReplacesTheLimiter() {
    FakeClock clock = new FakeClock(0);
    LimitSet config = LimitSet.register(warmFile(2, 4000).limits(), clock, null);
    LimitSet.Reload faster = config.reload(warmFile(4, 4000).limits(), clock, null);
    assertEquals(
        List.of(
            "'warm' changed: token bucket 4.0/SECONDS capacity 4 permits 1 WAIT maxWait 1000 ms warmUp 4000 ms"),
        faster.changes);
    LimitSet.Reload colder = faster.next.reload(warmFile(4, 2000).limits(), clock, null);
    assertEquals(
        List.of(
            "'warm' replaced: token bucket 4.0/SECONDS capacity 4 permits 1 WAIT maxWait 1000 ms warmUp 2000 ms"),
        colder.changes);
    LimitSet.Reload none = colder.next.reload(warmFile(4, 0).limits(), clock, null);
    assertEquals(
        List.of(
            "'warm' replaced: token bucket 4.0/SECONDS capacity 4 permits 1 WAIT maxWait 1000 ms"),
        none.changes);
  }

  private static ConfigFile warmFile(int rate, int warmUpMillis) {
    ConfigFile file =
        ConfigFile.parse(
            "test.yaml",
            "limits:\n"
                + "  - name: warm\n"
                + "    methods: \"q.Warm#get\"\n"
                + "    tokenBucket: { rate: "
                + rate
                + ", capacity: 4, warmUpMillis: "
                + warmUpMillis
                + " }\n"
                + "    onLimit: WAIT\n");
    assertTrue(file.errors().isEmpty(), file.errors().toString());
    return file;
  }
}
