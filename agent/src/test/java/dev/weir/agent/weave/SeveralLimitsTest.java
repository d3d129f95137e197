package dev.weir.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Several limits on one method, woven in-process (SPEC "Several limits on one method"): repeated
 * and mixed annotations, a config pattern that reaches an annotated method, two patterns that meet
 * on one method, the refusals that fail a method closed, and the names a refusal carries.
 */
class SeveralLimitsTest {
  private static final String PKG = "fixtures.several.";
  private static final String QUOTES = PKG + "Quotes";
  private static final long MS = 1_000_000L;
  private static final String[] ENTRIES = {
    "sev-config", "sev-first", "sev-second", "sev-overridden"
  };
  private static final String[] ANNOTATED = {
    "sev-per-second",
    "sev-per-day",
    "sev-burst",
    "sev-shape",
    "sev-named",
    "sev-reject",
    "sev-queue",
    "sev-fb-a",
    "sev-fb-b",
    "sev-fb-c",
    "sev-fb-d",
    "sev-per-client",
    "sev-per-client-hourly",
    "sev-annotated",
    "sev-both-a",
    "sev-both-b",
    "sev-overridden",
    "sev-other"
  };

  private final FakeClock clock = new FakeClock(0);
  private Class<?> quotes;
  private WeirTransformer transformer;

  @BeforeEach
  void weave() throws Exception {
    AgentLog.setLevel(AgentLog.OFF);
    ConfigFile file =
        ConfigFile.parse(
            "several.yaml",
            "limits:\n"
                + "  - name: sev-config\n"
                + "    methods: \"fixtures.several.Quotes#both\"\n"
                + "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }\n"
                + "  - name: sev-first\n"
                + "    methods: \"fixtures.several.Quotes#plain\"\n"
                + "    tokenBucket: { rate: 1, per: HOURS, capacity: 4 }\n"
                + "  - name: sev-second\n"
                + "    methods: \"fixtures.several.Quotes#pl*\"\n"
                + "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }\n"
                + "  - name: sev-overridden\n"
                + "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }\n");
    assertTrue(file.errors().isEmpty(), file.errors().toString());
    ConfigLimits limits = ConfigLimits.of(LimitSet.register(file.limits(), clock, null));
    transformer = new WeirTransformer(() -> new Weaver(clock, limits), limits, null);
    quotes = new TransformingLoader(transformer, PKG).loadClass(QUOTES);
    quotes.getField("bodyRuns").setInt(null, 0);
  }

  @AfterEach
  void tearDown() {
    AgentLog.setLevel(AgentLog.INFO);
    for (String name : ENTRIES) {
      LimiterRegistry.supersede("name " + name);
    }
    for (String name : ANNOTATED) {
      LimiterRegistry.supersede("annotation " + name); // each test weaves on its own clock
    }
  }

  private Object call(String method, Object... args) throws Exception {
    Class<?>[] types = new Class<?>[args.length];
    for (int i = 0; i < args.length; i++) {
      types[i] = args[i] instanceof Integer ? int.class : args[i].getClass();
    }
    Method m = quotes.getMethod(method, types);
    return m.invoke(null, args);
  }

  private RateLimitedException limitedBy(String method, Object... args) {
    InvocationTargetException e =
        assertThrows(InvocationTargetException.class, () -> call(method, args));
    assertTrue(e.getCause() instanceof RateLimitedException, String.valueOf(e.getCause()));
    return (RateLimitedException) e.getCause();
  }

  private static BucketLimiter named(String name) {
    List<Integer> ids = LimiterRegistry.idsNamed(name);
    return (BucketLimiter) LimiterRegistry.limiter(ids.get(ids.size() - 1));
  }

  private int bodyRuns() throws Exception {
    return quotes.getField("bodyRuns").getInt(null);
  }

  @Test
  void repeatedAnnotationsBothApplyAndTheRefusalNamesTheLongestWait() throws Exception {
    call("quote");
    call("quote");
    RateLimitedException e = limitedBy("quote");
    assertEquals("sev-per-second", e.limiterName());
    assertEquals(100 * MS, e.retryAfterNanos());
    clock.advance(1000 * MS);
    call("quote");
    e = limitedBy("quote");
    assertEquals("sev-per-day", e.limiterName(), "three a day, all taken");
    assertEquals((8 * 3600 - 1) * 1000 * MS, e.retryAfterNanos(), "8 h a permit, 1 s refilled");
    assertEquals(3, bodyRuns());
    assertEquals(0, named("sev-per-day").availablePermits());
    assertEquals(1, named("sev-per-second").rejected(), "the first refusal was the second's");
  }

  @Test
  void theExceptionNamesEveryRefusingLimit() throws Exception {
    call("bothRefuse");
    RateLimitedException e = limitedBy("bothRefuse");
    assertEquals("sev-both-a", e.limiterName(), "the longest wait");
    assertEquals(1000 * MS, e.retryAfterNanos());
    assertEquals(java.util.Arrays.asList("sev-both-a", "sev-both-b"), e.refusingLimiters());
    assertEquals(
        "rate limit 'sev-both-a' exceeded (also refused by 'sev-both-b'); retry after 1000 ms",
        e.getMessage());
  }

  @Test
  void anEntryWithoutMethodsOverridesOneLimitOfSeveral() throws Exception {
    call("overridden");
    call("overridden");
    assertEquals("sev-overridden", limitedBy("overridden").limiterName(), "the file's capacity");
    assertEquals(48, named("sev-other").availablePermits(), "the other limit as annotated");
  }

  @Test
  void aTokenBucketAndAShapingBucketMixed() throws Exception {
    long start = clock.nanoTime();
    for (int i = 0; i < 3; i++) {
      call("mixed");
    }
    assertEquals(200 * MS, clock.nanoTime() - start, "the shaping bucket spaced them 100 ms apart");
    assertEquals(3, named("sev-burst").granted());
    assertEquals(2, named("sev-shape").waited());
  }

  @Test
  void aMethodWithSeveralLimitsNamesEach() {
    InvocationTargetException e =
        assertThrows(InvocationTargetException.class, () -> call("unnamed"));
    assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
    assertTrue(
        e.getCause().getMessage().contains("a method with more than one names each"),
        e.getCause().getMessage());
  }

  @Test
  void aSharedFallbackAnswersForEitherLimit() throws Exception {
    assertEquals(1, call("withFallback"));
    assertEquals(-1, call("withFallback"), "refused: the fallback answers");
    assertEquals(1, bodyRuns());
  }

  @Test
  void differentFallbacksFailTheMethodClosed() {
    InvocationTargetException e =
        assertThrows(InvocationTargetException.class, () -> call("twoFallbacks"));
    assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
    assertTrue(e.getCause().getMessage().contains("must name the same fallback"));
  }

  @Test
  void limitKeyKeysEveryAnnotatedLimitOfTheMethod() throws Exception {
    call("perClient", "x");
    call("perClient", "x");
    assertEquals("sev-per-client", limitedBy("perClient", "x").limiterName());
    call("perClient", "y");
    clock.advance(1000 * MS);
    call("perClient", "x");
    assertEquals("sev-per-client-hourly", limitedBy("perClient", "x").limiterName());
    assertEquals(4, bodyRuns());
    assertEquals(2, named("sev-per-client-hourly").keys());
  }

  @Test
  void aCallThatWouldWaitIsRefusedWhenALimitDoesNotWait() throws Exception {
    call("mustNotWait");
    RateLimitedException e = limitedBy("mustNotWait");
    assertEquals(
        "sev-reject", e.limiterName(), "the limit that refused it: it does not wait 100 ms");
    assertEquals(100 * MS, e.retryAfterNanos(), "it would wait 100 ms in sev-queue's queue");
    assertEquals(1, named("sev-reject").rejected(), "sev-reject does not wait: it refused");
  }

  @Test
  void aPatternReachingAnAnnotatedMethodAddsItsLimit() throws Exception {
    call("both");
    call("both");
    RateLimitedException e = limitedBy("both");
    assertEquals("sev-config", e.limiterName(), "the config limit's capacity is 2");
    assertEquals(3, named("sev-annotated").availablePermits(), "the annotation's paid for two");
    List<String> methods = transformer.coverage().methodsOf(named("sev-config"));
    assertEquals(1, methods.size(), methods.toString());
    assertTrue(
        methods.get(0).startsWith(QUOTES + "#both()@")
            && methods.get(0).endsWith(" (with sev-annotated)"),
        "Methods names the method's other limit: " + methods);
    assertEquals(
        1, transformer.coverage().methodsOf(named("sev-annotated")).size(), "both cover it");
  }

  @Test
  void twoPatternsMeetingOnAMethodBothApplyAndNestedCallsPassFree() throws Exception {
    call("plain", 3); // recursion: only the outermost call is charged on each
    call("plain", 0);
    call("plain", 2);
    assertEquals("sev-second", limitedBy("plain", 0).limiterName());
    assertEquals(1, named("sev-first").availablePermits(), "4 less the 3 admitted");
    assertEquals(3, bodyRuns());
  }

  @Test
  void anAnnotationOfANewerApiFailsItsMethodClosed() {
    InvocationTargetException e =
        assertThrows(InvocationTargetException.class, () -> call("newer"));
    assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
    String message = e.getCause().getMessage();
    assertTrue(message.contains("@dev.weir.SlidingWindow"), message);
    assertTrue(message.contains("does not know"), message);
    assertTrue(message.contains("newer than the agent"), message);
  }
}
