package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Another agent retransforming a woven class, again and again: the limit is never woven twice. */
class RetransformIT {
  static Path secondAgentJar() throws IOException {
    return TestJars.ofFixture(
        "dev.weir.it.fixtures.RetransformingAgent",
        "Premain-Class",
        "dev.weir.it.fixtures.RetransformingAgent",
        "Can-Retransform-Classes",
        "true");
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void retransformingAgainNeverStacksASecondCopyOfTheLimit(String jdk) throws IOException {
    Result r =
        ForkedJvm.run(
                jdk,
                List.of("-javaagent:" + ForkedJvm.AGENT_JAR, "-javaagent:" + secondAgentJar()),
                "dev.weir.it.fixtures.RetransformingAgent")
            .assertExit(0);
    assertEquals(8, r.longValue("before"), r::toString);
    assertEquals(8, r.longValue("after"), "16 of a capacity of 20: each call costs one permit");
  }
}
