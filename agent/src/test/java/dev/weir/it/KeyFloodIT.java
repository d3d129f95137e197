package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A million distinct keys in a 64 MB heap: the bound on keys holds memory down, new keys past it
 * are limited, and a hot key stays limited through the churn.
 */
class KeyFloodIT {
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aFloodOfKeysIsBoundedAndTheHotKeyStaysLimited(String jdk) {
    Result r =
        ForkedJvm.run(
                jdk,
                List.of("-Xmx64m", "-javaagent:" + ForkedJvm.AGENT_JAR + "=maxKeys=100000"),
                "dev.weir.it.fixtures.KeyFlood",
                "1000000")
            .assertExit(0);
    // the hot key takes one place; 99,999 flood keys fill the rest, none goes idle within the hour
    assertEquals(99_999, r.longValue("floodAdmitted"), r::toString);
    assertEquals(5, r.longValue("hotAdmitted"), "the hot key keeps its bucket of 5");
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void keysOf8KbEachCostABoundedSize(String jdk) {
    // held whole, 100,000 keys of 8 KB would take 800 MB: a 64 MB heap holds them as digests
    Result r =
        ForkedJvm.run(
                jdk,
                List.of("-Xmx64m", "-javaagent:" + ForkedJvm.AGENT_JAR + "=maxKeys=100000"),
                "dev.weir.it.fixtures.KeyFlood",
                "100000",
                "8192")
            .assertExit(0);
    assertEquals(99_999, r.longValue("floodAdmitted"), r::toString);
    assertEquals(5, r.longValue("hotAdmitted"), "the hot key keeps its bucket of 5");
    // SPEC: 100,000 keys of 8 KB each hold at most about 20 MB
    assertTrue(r.longValue("usedHeapMb") <= 40, r::toString);
  }
}
