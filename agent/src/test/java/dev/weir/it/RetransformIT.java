package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Another agent retransforming a woven class, again and again: the limit is never woven twice. */
class RetransformIT {
  static Path secondAgentJar() throws IOException {
    Path jar = Files.createTempFile("second-agent", ".jar");
    jar.toFile().deleteOnExit();
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.putValue("Premain-Class", "dev.weir.it.fixtures.RetransformingAgent");
    main.putValue("Can-Retransform-Classes", "true");
    String entry = "dev/weir/it/fixtures/RetransformingAgent.class";
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest)) {
      out.putNextEntry(new JarEntry(entry));
      out.write(Files.readAllBytes(Paths.get(ForkedJvm.FIXTURES, entry)));
      out.closeEntry();
    }
    return jar;
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
