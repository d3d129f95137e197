package dev.weir.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.RateLimitedException;
import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import fixtures.weave.Annotated;
import fixtures.weave.OptionalDependency;
import fixtures.weave.Redeployable;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Weaving in-process: the fixture's class file goes through the agent's transformer exactly as the
 * JVM hands it over, and is defined by a fresh class loader. The bridge, the registry and the fake
 * clock are the test's own classes, so results are exact.
 */
class WeirTransformerTest {
  private static final String FIXTURE = Annotated.class.getName();
  private final FakeClock clock = new FakeClock(0);
  private WeirTransformer transformer;
  private Class<?> woven;

  @AfterEach
  void restoreLog() {
    AgentLog.setLevel(AgentLog.INFO);
  }

  @BeforeEach
  void weave() throws Exception {
    AgentLog.setLevel(AgentLog.OFF); // the invalid fixture method logs an error on every weave
    transformer = new WeirTransformer(() -> new Weaver(clock, ConfigLimits.NONE));
    woven = new WeavingLoader(transformer).loadClass(FIXTURE);
    woven.getField("bodyRuns").setInt(null, 0);
  }

  @Test
  void staticMethodIsLimitedWithExactRetryAfter() throws Exception {
    Method limited = woven.getMethod("limited");
    for (int i = 0; i < 3; i++) {
      limited.invoke(null);
    }
    RateLimitedException e = limitedBy(() -> limited.invoke(null));
    assertEquals(FIXTURE + "#limited", e.limiterName());
    assertEquals(100_000_000L, e.retryAfterNanos());
    assertEquals(3, bodyRuns(), "a limited call never runs the body");
    clock.advance(100_000_000L);
    limited.invoke(null);
    assertEquals(4, bodyRuns());
  }

  @Test
  void methodsListsTheAnnotatedMethodsOfALimiter() throws Exception {
    woven.getMethod("limited").invoke(null);
    java.util.List<Integer> ids = LimiterRegistry.idsNamed(FIXTURE + "#limited");
    assertFalse(ids.isEmpty());
    java.util.List<String> methods =
        transformer.coverage().methodsOf(LimiterRegistry.limiter(ids.get(ids.size() - 1)));
    assertEquals(1, methods.size(), methods.toString());
    assertTrue(
        methods.get(0).startsWith(FIXTURE + "#limited()@WeavingLoader-"), methods.toString());
  }

  @Test
  @SuppressWarnings("unchecked")
  void callsThroughABridgeMethodCostExactlyOnce() throws Exception {
    Supplier<String> supplier = (Supplier<String>) woven.getConstructor().newInstance();
    assertEquals("value", supplier.get()); // the bridge get()Object calls get()String
    assertEquals("value", supplier.get());
    assertThrows(RateLimitedException.class, supplier::get);
    assertEquals(2, bodyRuns());
  }

  @Test
  void constructorsAreLimitedUnderTheNameInit() throws Exception {
    Constructor<?> limited = woven.getConstructor(int.class);
    limited.newInstance(1);
    RateLimitedException e = limitedBy(() -> limited.newInstance(2));
    assertEquals(FIXTURE + "#<init>", e.limiterName());
    assertEquals(1, bodyRuns());
    woven.getConstructor().newInstance(); // not limited
  }

  @Test
  void overloadsGetTheirParameterTypesInTheDefaultName() throws Exception {
    Object target = woven.getConstructor().newInstance();
    Method ints = woven.getMethod("send", int.class);
    Method strings = woven.getMethod("send", String.class);
    ints.invoke(target, 1);
    strings.invoke(target, "a");
    assertEquals(FIXTURE + "#send(int)", limitedBy(() -> ints.invoke(target, 2)).limiterName());
    assertEquals(
        FIXTURE + "#send(java.lang.String)",
        limitedBy(() -> strings.invoke(target, "b")).limiterName());
  }

  @Test
  void invalidAnnotationFailsClosed() throws Exception {
    Object target = woven.getConstructor().newInstance();
    Method zero = woven.getMethod("zeroRate");
    InvocationTargetException e =
        assertThrows(InvocationTargetException.class, () -> zero.invoke(target));
    assertTrue(e.getCause() instanceof IllegalStateException);
    assertEquals(
        "invalid @TokenBucket on " + FIXTURE + "#zeroRate(): rate must be > 0 and finite, was 0.0",
        e.getCause().getMessage());
  }

  @Test
  void warmUpMillisIsWovenFromTheAnnotation() throws Exception {
    Method warm = woven.getMethod("warm");
    // a new cold limiter's first call is limited for its own interval (Guava's first permit, 8->7
    // of rate 2/s, warm-up 4 s: 1.375 s), then the next one's (1.125 s)
    assertEquals(1_375_000_000L, limitedBy(() -> warm.invoke(null)).retryAfterNanos());
    clock.advance(1_375_000_000L);
    warm.invoke(null);
    assertEquals(1_125_000_000L, limitedBy(() -> warm.invoke(null)).retryAfterNanos());
    assertEquals(1, bodyRuns());
    java.util.List<Integer> ids = LimiterRegistry.idsNamed(FIXTURE + "#warm");
    assertTrue(
        LimiterRegistry.limiter(ids.get(ids.size() - 1)).settings().endsWith(" warmUp 4000 ms"));

    Method keyed = woven.getMethod("warmKeyed", String.class);
    InvocationTargetException e =
        assertThrows(InvocationTargetException.class, () -> keyed.invoke(null, "acme"));
    assertEquals(
        "invalid @TokenBucket on "
            + FIXTURE
            + "#warmKeyed(java.lang.String): warmUpMillis is not supported with a key yet (per-key"
            + " buckets do not warm up), was 100 (@LimitKey is on parameter 0)",
        e.getCause().getMessage());
  }

  @Test
  void anAttributeOfAnotherTypeIsRefusedWithItsValue() throws Exception {
    // a class compiled against another version of the annotation: rate written as an int, per as
    // a string; each method is refused, naming the attribute and the value
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
    cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "gen/WrongTypes", null, "java/lang/Object", null);
    String[][] methods = {
      {"intRate", "rate"}, {"stringPer", "per"}, {"otherEnum", "per"}, {"unknown", "burst"}
    };
    for (String[] m : methods) {
      MethodVisitor mv =
          cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, m[0], "()V", null, null);
      AnnotationVisitor av = mv.visitAnnotation("Ldev/weir/TokenBucket;", true);
      if (m[0].equals("intRate")) {
        av.visit("rate", 5);
      } else {
        av.visit("rate", 5.0);
      }
      if (m[0].equals("stringPer")) {
        av.visit("per", "SECONDS");
      } else if (m[0].equals("otherEnum")) {
        av.visitEnum("per", "Ljava/time/temporal/ChronoUnit;", "DAYS");
      } else if (m[0].equals("unknown")) {
        av.visit("burst", 9L);
      }
      av.visitEnd();
      mv.visitCode();
      mv.visitInsn(Opcodes.RETURN);
      mv.visitMaxs(0, 0);
      mv.visitEnd();
    }
    cw.visitEnd();
    byte[] woven = transformer.transform(null, "gen/WrongTypes", null, null, cw.toByteArray());
    assertNotNull(woven, "refused methods are woven to fail closed");
    Class<?> type =
        new ClassLoader(getClass().getClassLoader()) {
          Class<?> define() {
            return defineClass("gen.WrongTypes", woven, 0, woven.length);
          }
        }.define();
    Method intRate = type.getMethod("intRate");
    InvocationTargetException e =
        assertThrows(InvocationTargetException.class, () -> intRate.invoke(null));
    assertEquals(
        "invalid @TokenBucket on gen.WrongTypes#intRate(): cannot read it (rate is 5 (Integer),"
            + " expected a Double)",
        e.getCause().getMessage());
    Method stringPer = type.getMethod("stringPer");
    e = assertThrows(InvocationTargetException.class, () -> stringPer.invoke(null));
    assertEquals(
        "invalid @TokenBucket on gen.WrongTypes#stringPer(): cannot read it (per is \"SECONDS\""
            + " (String), expected a constant of java.util.concurrent.TimeUnit)",
        e.getCause().getMessage());
    Method otherEnum = type.getMethod("otherEnum");
    e = assertThrows(InvocationTargetException.class, () -> otherEnum.invoke(null));
    assertEquals(
        "invalid @TokenBucket on gen.WrongTypes#otherEnum(): cannot read it (per is"
            + " java.time.temporal.ChronoUnit.DAYS (enum constant), expected a constant of"
            + " java.util.concurrent.TimeUnit)",
        e.getCause().getMessage());
    Method unknown = type.getMethod("unknown");
    e = assertThrows(InvocationTargetException.class, () -> unknown.invoke(null));
    assertEquals(
        "invalid @TokenBucket on gen.WrongTypes#unknown(): cannot read it (it has an attribute"
            + " burst that this agent's @TokenBucket does not declare (compiled against another"
            + " version of weir-annotations?))",
        e.getCause().getMessage());
  }

  @Test
  void aKeyOnAConstructorWithParametersAddedAtBothEndsIsRefused() throws Exception {
    Method local = woven.getMethod("localKeyed", String.class, int.class);
    InvocationTargetException e =
        assertThrows(InvocationTargetException.class, () -> local.invoke(null, "a", 1));
    assertTrue(e.getCause() instanceof IllegalStateException, () -> "got " + e.getCause());
    assertTrue(
        e.getCause()
            .getMessage()
            .contains(
                "@LimitKey cannot be matched to a parameter: its class file annotates 1 of its 2"
                    + " parameters without saying which"),
        e.getCause().getMessage());
  }

  @Test
  void aSignatureNamingAMissingClassStillGetsItsLimit() throws Exception {
    Method call = woven.getMethod("callTakesOptional");
    call.invoke(null);
    limitedBy(() -> call.invoke(null));
    assertEquals(1, bodyRuns());
  }

  @Test
  void unlimitedMethodsAreUntouched() throws Exception {
    Object target = woven.getConstructor().newInstance();
    for (int i = 0; i < 100; i++) {
      assertEquals(
          3L, woven.getMethod("unlimited", long.class, double.class).invoke(target, 1L, 2.0));
    }
  }

  @Test
  void classesThatNeverMentionALimitAreNotParsed() throws Exception {
    byte[] plain = classFile(FakeClock.class.getName());
    assertNull(transformer.transform(null, "dev/weir/Plain", null, null, plain));
    assertFalse(WeirTransformer.mentionsLimit("dev/weir/Plain", plain));
    assertTrue(WeirTransformer.mentionsLimit("x/Y", classFile(FIXTURE)));
    assertFalse(WeirTransformer.mentionsLimit("java/lang/Thing", classFile(FIXTURE)));
    assertFalse(WeirTransformer.mentionsLimit(null, classFile(FIXTURE)));
  }

  @Test
  void markerSearchFindsTheAnnotationDescriptorsOnly() {
    assertTrue(WeirTransformer.mentionsLimit("a/B", bytes("xxLdev/weir/TokenBucket;yy")));
    assertTrue(
        WeirTransformer.mentionsLimit("a/B", bytes("Ldev/weir/LimitKey;Ldev/weir/LeakyBucket;")));
    assertFalse(WeirTransformer.mentionsLimit("a/B", bytes("Ldev/weir/TokenBucket")));
    assertFalse(WeirTransformer.mentionsLimit("a/B", bytes("Ldev/weir/RateLimitedException;")));
    assertFalse(WeirTransformer.mentionsLimit("a/B", new byte[0]));
    assertTrue(WeirTransformer.mentionsLimit("a/B", bytes("Ldev/weir/TokenBuckets;")), "repeated");
    assertTrue(WeirTransformer.mentionsLimit("a/B", bytes("xLdev/weir/LeakyBuckets;")));
    assertTrue(
        WeirTransformer.mentionsLimit("a/B", bytes("Ldev/weir/SlidingWindow;")),
        "an API annotation newer than the agent: its method must fail closed");
    assertFalse(WeirTransformer.mentionsLimit("a/B", bytes("Ldev/weir/LeakyBucket$Mode;")));
    assertFalse(WeirTransformer.mentionsLimit("a/B", bytes("Ldev/weir/agent/X;")));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  private int bodyRuns() throws ReflectiveOperationException {
    return woven.getField("bodyRuns").getInt(null);
  }

  private static RateLimitedException limitedBy(ReflectiveCall call) {
    InvocationTargetException e = assertThrows(InvocationTargetException.class, call::run);
    assertNotNull(e.getCause());
    assertTrue(e.getCause() instanceof RateLimitedException, () -> "got " + e.getCause());
    return (RateLimitedException) e.getCause();
  }

  private static byte[] classFile(String className) throws IOException {
    try (InputStream in =
        WeirTransformerTest.class
            .getClassLoader()
            .getResourceAsStream(className.replace('.', '/') + ".class")) {
      return in.readAllBytes();
    }
  }

  private interface ReflectiveCall {
    void run() throws Exception;
  }

  /** Child-first for the fixture package, whose classes it passes through the transformer. */
  /**
   * A class whose thread's stack overflows while it is being woven (it loads at the edge of a deep
   * recursion) is woven on a thread of Weir's instead, never loaded with its limits off.
   */
  @Test
  void aStackOverflowWhileWeavingHandsTheClassToAThreadOfWeirs() throws Exception {
    Weaver real = new Weaver(clock, ConfigLimits.NONE);
    Weaver overflowing = org.mockito.Mockito.mock(Weaver.class);
    Thread loading = Thread.currentThread();
    java.util.List<String> weavingThreads = new java.util.concurrent.CopyOnWriteArrayList<>();
    org.mockito.Mockito.when(
            overflowing.weave(
                org.mockito.ArgumentMatchers.any(),
                org.mockito.ArgumentMatchers.anyString(),
                org.mockito.ArgumentMatchers.any(),
                org.mockito.ArgumentMatchers.anyBoolean()))
        .thenAnswer(
            call -> {
              weavingThreads.add(Thread.currentThread().getName());
              if (Thread.currentThread() == loading) {
                throw new StackOverflowError();
              }
              return real.weave(
                  call.getArgument(0), call.getArgument(1), call.getArgument(2), false);
            });
    Class<?> c = new WeavingLoader(new WeirTransformer(() -> overflowing)).loadClass(FIXTURE);
    assertEquals(java.util.List.of(loading.getName(), "weir-weaver"), weavingThreads);
    c.getField("bodyRuns").setInt(null, 0);
    Method limited = c.getMethod("limited");
    for (int i = 0; i < 3; i++) {
      limited.invoke(null);
    }
    limitedBy(() -> limited.invoke(null)); // woven: the fourth call is limited
    assertEquals(3, c.getField("bodyRuns").getInt(null));
  }

  /**
   * A redeploy binds its limiters to the ids its collected predecessor freed, in any order, and
   * possibly before the management thread has told the weaver those ids are free: a keyed method
   * must not be judged by the one-bucket method that had its id before (nor the other way round).
   */
  @Test
  void aRedeployReusingFreedIdsIsNotJudgedByTheDroppedLimiters() throws Exception {
    for (int deploy = 0; deploy < 4; deploy++) {
      WeavingLoader loader = new WeavingLoader(transformer);
      Class<?> c = loader.loadClass(Redeployable.class.getName());
      c.getMethod("perClient", String.class).invoke(null, "a");
      c.getMethod("perClient", String.class).invoke(null, "b");
      c.getMethod("single").invoke(null);
      int loaderId = LimiterRegistry.loaderId(loader);
      loader = null;
      c = null;
      java.util.Set<Integer> collected = new java.util.HashSet<>();
      for (int i = 0; i < 100 && !collected.contains(loaderId); i++) {
        System.gc();
        Thread.sleep(20);
        LimiterRegistry.Dropped d = LimiterRegistry.dropCollected(); // the weaver is not told
        if (d != null) {
          collected.addAll(d.loaderIds);
        }
      }
      assertTrue(collected.contains(loaderId), "the redeployed loader was collected");
    }
  }

  private static final class WeavingLoader extends ClassLoader {
    private static final String HIDDEN =
        OptionalDependency.class.getName().replace('.', '/') + ".class";
    private final WeirTransformer transformer;

    WeavingLoader(WeirTransformer transformer) {
      super(WeirTransformerTest.class.getClassLoader());
      this.transformer = transformer;
    }

    @Override
    public InputStream getResourceAsStream(String name) {
      return name.equals(HIDDEN) ? null : super.getResourceAsStream(name);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.equals(OptionalDependency.class.getName())) {
        throw new ClassNotFoundException(name + " is hidden: an absent optional dependency");
      }
      if (!name.startsWith("fixtures.weave.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        if (loaded != null) {
          return loaded;
        }
        try {
          byte[] original = classFile(name);
          byte[] transformed =
              transformer.transform(this, name.replace('.', '/'), null, null, original);
          byte[] bytes = transformed == null ? original : transformed;
          return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException e) {
          throw new ClassNotFoundException(name, e);
        }
      }
    }
  }
}
