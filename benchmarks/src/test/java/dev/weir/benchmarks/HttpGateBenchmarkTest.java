package dev.weir.benchmarks;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.http.AddressBlock;
import dev.weir.agent.bootstrap.http.HttpGate;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each benchmark of the gate measures the path it names. */
class HttpGateBenchmarkTest {
  @AfterEach
  void noEntries() {
    HttpGate.install(List.of(), List.<AddressBlock>of(), 429);
  }

  @Test
  void eachPathIsTheOneItsNameSays() {
    HttpGateBenchmark b = new HttpGateBenchmark();
    b.setUp(true);
    for (int i = 0; i < 3; i++) {
      assertTrue(b.unmatched());
      assertTrue(b.admitted());
      assertFalse(b.rejected(), "answered 429 by the gate");
      assertTrue(b.laterFilter());
    }
    b.setUp(false);
    assertTrue(b.noEntries());
    assertTrue(b.rejected(), "no entries: nothing is limited");
  }
}
