package dev.weir.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.RateLimitedException;
import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.config.ConfigFile;
import dev.weir.agent.control.LimitSet;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An annotated method that a {@code Type+} pattern reaches only as an implementation its subtypes
 * inherit ({@code fixtures.inplace}): the annotation limits every call of it whatever the pattern
 * does.
 */
class AnnotatedAncestorTest {
  private static final String PKG = "fixtures.inplace.";
  private final FakeClock clock = new FakeClock(0);
  private TransformingLoader loader;

  @BeforeEach
  void setUp() {
    AgentLog.setLevel(AgentLog.OFF);
    ConfigFile file =
        ConfigFile.parse(
            "inplace.yaml",
            "limits:\n"
                + "  - name: inplace-writes\n"
                + "    methods: \"fixtures.inplace.Writer+#write\"\n"
                + "    tokenBucket: { rate: 1, per: HOURS, capacity: 100 }\n");
    assertTrue(file.errors().isEmpty(), file.errors().toString());
    final ConfigLimits limits = ConfigLimits.of(LimitSet.register(file.limits(), clock, null));
    WeirTransformer transformer =
        new WeirTransformer(() -> new Weaver(clock, limits), limits, null);
    loader = new TransformingLoader(transformer, PKG);
    final TransformingLoader classes = loader;
    transformer.loadedNames((l, name) -> classes.isLoaded(name.replace('/', '.')));
  }

  @AfterEach
  void tearDown() {
    AgentLog.setLevel(AgentLog.INFO);
    LimiterRegistry.supersede("name inplace-writes");
    LimiterRegistry.supersede("annotation inplace-own");
  }

  @Test
  void anInPlaceTypePlusPatternSwitchesOffTheAncestorsOwnAnnotation() throws Exception {
    // the writer loads first, so the ancestor is woven in place for writers as it loads
    loader.loadClass(PKG + "InheritingWriter");
    Object plain = loader.loadClass(PKG + "AnnotatedBase").getConstructor().newInstance();
    Method write = loader.loadClass(PKG + "AnnotatedBase").getMethod("write", int.class);
    write.invoke(plain, 1);
    write.invoke(plain, 2);
    InvocationTargetException e =
        assertThrows(
            InvocationTargetException.class,
            () -> write.invoke(plain, 3),
            "@TokenBucket(capacity = 2) on AnnotatedBase#write: the third call is limited");
    assertTrue(e.getCause() instanceof RateLimitedException, String.valueOf(e.getCause()));
    assertEquals("inplace-own", ((RateLimitedException) e.getCause()).limiterName());
  }
}
