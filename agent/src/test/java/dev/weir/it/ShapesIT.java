package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.weir.it.ForkedJvm.Result;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bytecode shape a limited method can take, woven by the agent jar in a forked JVM on each
 * JDK: each is charged exactly once per invocation, whatever path reaches it.
 */
class ShapesIT {
  private static final List<String> THREE_OF_FIVE =
      List.of(
          "static",
          "instance",
          "synchronized",
          "staticSynchronized",
          "wide.key7",
          "wide.key8",
          "varargs",
          "generic",
          "methodReference",
          "lambda",
          "reflection",
          "methodHandle",
          "businessException",
          "leaky",
          "constructor",
          "constructor.keyed1",
          "constructor.keyed2",
          "inner.keyed1",
          "inner.keyed2",
          "defaultMethod",
          "bridge",
          "perUser.alice",
          "perUser.bob",
          "perUser.null",
          "perTenant.acme",
          "perTags.ab",
          "perTags.c",
          "perIds.12");

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void everyShapeIsChargedExactlyOncePerCall(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, "dev.weir.it.fixtures.Shapes").assertExit(0);
    assertFalse(r.out.contains(".unexpected="), r::toString);
    assertFalse(r.out.contains(".badRetryAfter="), r::toString);
    assertFalse(r.err.contains("ERROR"), r.err);
    for (String shape : THREE_OF_FIVE) {
      assertEquals(3, r.longValue(shape), shape + ": three of five calls\n" + r);
    }
    assertEquals(0, r.longValue("perTenant.acme.again"), "the same key value, the same bucket");
    assertEquals("true", r.value("synchronized.monitorFree"), "monitor released after limits");
    assertEquals("true", r.value("staticSynchronized.monitorFree"));
    assertEquals("16.0", r.value("wide.value"), "wide and narrow arguments arrive intact");
    // each admitted call ran its body once; the business-exception body counts twice (finally),
    // and wide.value adds one
    long expectedBodies = 3L * THREE_OF_FIVE.size() + 3 + 1;
    assertEquals(expectedBodies, r.longValue("body"), "a limited call never runs the body");
  }
}
