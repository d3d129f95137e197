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
import java.io.IOException;
import java.io.InputStream;
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
  private Loader loader;

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
    loader = new Loader(transformer);
    final Loader classes = loader;
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

  /** Defines the fixtures from their class files, through the transformer, as the JVM would. */
  private static final class Loader extends ClassLoader {
    private final WeirTransformer transformer;

    Loader(WeirTransformer transformer) {
      super(AnnotatedAncestorTest.class.getClassLoader());
      this.transformer = transformer;
    }

    boolean isLoaded(String name) {
      return findLoadedClass(name) != null;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith(PKG)) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        if (loaded != null) {
          return loaded;
        }
        String resource = name.replace('.', '/') + ".class";
        try (InputStream in = getResourceAsStream(resource)) {
          byte[] original = in.readAllBytes();
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
