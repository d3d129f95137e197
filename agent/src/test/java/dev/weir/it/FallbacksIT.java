package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Fallback methods replace only the limit, in every SPEC form, on each JDK. */
class FallbacksIT {
  private static final String C = "dev.weir.it.fixtures.Fallbacks";

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aLimitedCallRunsTheFallbackInsteadOfTheBody(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, C).assertExit(0);
    for (int i = 0; i < 4; i++) {
      boolean admitted = i < 2;
      assertEquals(admitted ? "fresh a" : "cached a", r.value("plain" + i), r::toString);
      assertEquals(admitted ? "7" : "-7", r.value("withException" + i), "the exception is passed");
      assertEquals(admitted ? "b" : "f", r.value("voidMethod" + i));
      assertEquals(admitted ? "live x" : "offline x", r.value("lookup" + i), "interface default");
      assertEquals(admitted ? "5" : "-2005", r.value("instance" + i), "private instance fallback");
    }
    assertEquals("business failure", r.value("business0"), "a business exception is not replaced");
    assertEquals("business failure", r.value("business1"));
    assertEquals("-1", r.value("business2"), "limited: the fallback, not the body");
    assertEquals("-1", r.value("business3"));
    assertEquals("ok alice", r.value("alice0"));
    assertEquals("limited alice", r.value("alice1"), "per key, with the exception");
    assertEquals("ok bob", r.value("bob0"));
    assertEquals("departed", r.value("shaped0"));
    assertEquals(
        "fallback cause=InterruptedException flag=true",
        r.value("shaped1"),
        "an interrupted shaping waiter falls back, its flag kept");
    assertEquals("admitted", r.value("waiting0"));
    assertEquals("fallback cause=InterruptedException flag=true", r.value("waiting1"));
    assertEquals("loaded", r.value("noBody"));
    assertTrue(
        r.err.contains(
            "[weir] ERROR cannot limit "
                + C
                + "$NoBody#abstractMethod(): an abstract method has no calls of its own to limit;"
                + " annotate its implementations instead"),
        r.err);
    assertFalse(r.err.contains("nativeMethod"), "a native method is limited: " + r.err);
  }
}
