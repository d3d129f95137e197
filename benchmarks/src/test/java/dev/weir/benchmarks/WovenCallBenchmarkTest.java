package dev.weir.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The woven-call benchmark's target is really limited under the agent, and refuses to run without.
 */
class WovenCallBenchmarkTest {
  @Test
  void underTheAgentTheTargetIsLimitedAsTheBenchmarkAssumes() throws Exception {
    String agent = System.getProperty("weir.agent.jar");
    assertTrue(new File(agent).isFile(), "the agent jar is built first: " + agent);
    Process p =
        new ProcessBuilder(
                List.of(
                    System.getProperty("java.home") + "/bin/java",
                    "-javaagent:" + agent,
                    "-cp",
                    System.getProperty("java.class.path"),
                    WovenTarget.class.getName()))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
    assertTrue(out.contains("woven=true"), out);
    assertTrue(out.contains("admitted=100000"), "permits always available: " + out);
    assertTrue(out.contains("refused=100000"), "every call refused: " + out);
  }

  @Test
  void withoutTheAgentTheBenchmarkRefusesToRun() {
    assertEquals(false, WovenTarget.woven(), "this JVM has no agent");
    assertThrows(IllegalStateException.class, () -> new WovenCallBenchmark().setUp());
  }
}
