package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Class-loader shapes, old class-file versions and an application's own Byte Buddy, each woven by
 * the agent jar in a forked JVM on each JDK, with exact permit counts.
 */
class LoadersIT {
  private static final String FIXTURES = "dev.weir.it.fixtures.";

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void everyLoaderShapeIsLimitedAndADiscardedLoaderIsCollected(String jdk) {
    Result r =
        ForkedJvm.withAgent(
                jdk, null, FIXTURES + "Loaders", ForkedJvm.FIXTURES, ForkedJvm.ANNOTATIONS_JAR)
            .assertExit(0);
    // perLoader (default name: one bucket per loader), shared (explicit name: one for the JVM),
    // keyed (two users, capacity 2 each), the caught exception's loader, and whether it is the
    // RateLimitedException the target's own loader sees
    assertEquals("3,3,4,bootstrap,true", r.value("system"), r::toString);
    assertEquals("3,0,4,bootstrap,true", r.value("nullParent"), r::toString);
    assertEquals("3,0,4,bootstrap,true", r.value("platformParent"), r::toString);
    assertEquals("3,0,4,own,true", r.value("childFirst"), "its own copy of the API");
    assertEquals("true", r.value("childFirst.ownApi"));
    assertEquals("3,0,4,bootstrap,true", r.value("redeployed"), r::toString);
    assertEquals("true", r.value("collected"), "Weir must not keep a discarded loader alive");
    assertFalse(r.err.contains("ERROR"), r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void theKeySweeperKeepsNothingOfTheWebAppThatStartedIt(String jdk) {
    Result r =
        ForkedJvm.withAgent(
                jdk,
                null,
                FIXTURES + "Loaders",
                ForkedJvm.FIXTURES,
                ForkedJvm.ANNOTATIONS_JAR,
                "context")
            .assertExit(0);
    assertEquals("3,3,4,bootstrap,true", r.value("redeployed"), r::toString);
    assertFalse(r.out.contains("groupDestroyed=false"), "no Weir thread in the web app's group");
    assertEquals("true", r.value("contextCollected"), "no thread-local or group pins the loader");
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void classFilesOfJava14To8AreWoven(String jdk) throws IOException {
    Path config = Files.createTempFile("weir", ".yaml");
    Files.write(
        config,
        List.of(
                "limits:",
                "  - name: legacy",
                "    methods: dev.weir.it.fixtures.OldStyle#legacy",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
                "    key: 0")
            .stream()
            .reduce("", (a, b) -> a + b + "\n")
            .getBytes(StandardCharsets.UTF_8));
    try {
      Result r =
          ForkedJvm.withAgent(jdk, "config=" + config, FIXTURES + "OldVersions").assertExit(0);
      for (int major = 48; major <= 52; major++) {
        assertEquals(3, r.longValue("v" + major + ".annotated"), "major " + major + "\n" + r);
        assertEquals(3, r.longValue("v" + major + ".legacy"), "major " + major + ", per key");
      }
      assertFalse(r.err.contains("ERROR"), r.err);
    } finally {
      Files.delete(config);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anApplicationWithItsOwnByteBuddyIsLimitedToo(String jdk) {
    Result r =
        ForkedJvm.runWithClassPath(
                jdk,
                List.of("-javaagent:" + ForkedJvm.AGENT_JAR),
                System.getProperty("weir.bytebuddy.jar"),
                FIXTURES + "OwnByteBuddy")
            .assertExit(0);
    assertEquals("application", r.value("byteBuddyLoader"), r::toString);
    assertEquals("true", r.value("annotated"));
    assertEquals(3, r.longValue("generated"), r::toString);
    assertEquals("generated", r.value("value"));
  }
}
