package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A key whose type prints as its identity would give every call its own bucket: the limit would
 * silently do nothing. Before this was checked, {@code key: 0} on a servlet's request admitted 804
 * requests in 5 s against 10/s, with no warning; here each such method admitted 5 of 5 against a
 * capacity of 2.
 */
class KeyTrapsIT {
  private static final String MAIN = "dev.weir.it.fixtures.KeyTraps";
  private static final String C = MAIN;

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void identityKeysFailClosedOrAreWarned(String jdk) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: legacy-orders",
            "    methods: \"" + C + "#legacyByOrder\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }",
            "    key: 0",
            "  - name: legacy-requests",
            "    methods: \"" + C + "#legacyByRequest\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }",
            "    key: 0");
    Result r = ForkedJvm.withAgent(jdk, "config=" + config, MAIN).assertExit(0);
    // a class that keeps Object's toString(): fails closed, naming the type and what to do
    r.assertCalls("byOrder", 0, 0, 5);
    assertTrue(
        r.value("byOrder.message")
            .startsWith(
                "invalid @TokenBucket on "
                    + C
                    + "#byOrder("
                    + C
                    + "$Order): @LimitKey is on parameter 0, a "
                    + C
                    + "$Order, whose toString() is Object's (ClassName@hash, a new key for every"
                    + " object), so every call would get its own bucket and the limit would do"
                    + " nothing; key on a value that names what to limit"),
        r::toString);
    r.assertCalls("byOrders", 0, 0, 5); // keyed by content: each element prints its identity
    r.assertCalls("legacyByOrder", 0, 0, 5);
    assertTrue(
        r.value("legacyByOrder.message")
            .startsWith(
                config
                    + ":2: cannot limit "
                    + C
                    + "#legacyByOrder("
                    + C
                    + "$Order) as 'legacy-orders' (config: "
                    + C
                    + "#legacyByOrder): its key, parameter 0, is a "
                    + C
                    + "$Order, whose toString() is Object's"),
        r::toString);
    // types that print themselves, their own toString() or an inherited one: one bucket per key
    r.assertCalls("byName", 2, 3, 0);
    r.assertCalls("bySpecial", 2, 3, 0);
    // an interface cannot be judged by its type: the keys are, once, when they arrive
    r.assertCalls("byRequest", 5, 0, 0);
    r.assertCalls("legacyByRequest", 5, 0, 0);
    assertTrue(
        r.err.contains(
            "[weir] WARN '"
                + C
                + "#byRequest' keys calls by parameter 0 ("
                + C
                + "$Request) of "
                + C
                + "#byRequest("
                + C
                + "$Request), and a key looks like an identity string: "
                + C
                + "$"),
        r.err);
    assertTrue(
        r.err.contains(
            "[weir] WARN 'legacy-requests' keys calls by parameter 0 ("
                + C
                + "$Request) of "
                + C
                + "#legacyByRequest("),
        r.err);
    assertEquals(1, r.err.split("keys calls by", -1).length - 2, "once per limiter: " + r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aConfigKeyOfAnIdentityTypeNamedByThePatternStopsTheStart(String jdk) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: fine",
            "    methods: \"" + C + "#byName\"",
            "    tokenBucket: { rate: 1 }",
            "  - name: legacy-orders",
            "    methods: \"" + C + "#legacyByOrder(" + C + "$Order)\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }",
            "    key: 0");
    Result r = ForkedJvm.withAgent(jdk, "config=" + config, MAIN).assertExit(1);
    assertTrue(
        r.err.contains(
            "[weir] ERROR "
                + config
                + ":5: 'legacy-orders' has key: 0, and parameter 0 of "
                + C
                + "#legacyByOrder("
                + C
                + "$Order) is a "
                + C
                + "$Order, whose toString() is Object's"),
        r.err);
    assertEquals("", r.out, "main never ran");
  }
}
