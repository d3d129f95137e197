package dev.weir.it;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

/**
 * Jars of the tests' own class path (test dependencies) for a forked JVM's class path, so no test
 * names a version or a local repository path; and agent jars of one fixture class.
 */
final class TestJars {
  private TestJars() {}

  /**
   * @param wanted path fragments, e.g. {@code "/org/xerial/"}; each must match at least one jar
   * @return the class path entries whose path contains one of them, joined with the path separator
   * @throws IllegalStateException when a fragment matches nothing (a dependency missing from the
   *     POM would otherwise show as a puzzling {@code ClassNotFoundException} in the forked JVM)
   */
  static String matching(String... wanted) {
    // Failsafe's class path is in a manifest-only jar; it passes the real one in this property
    String tests =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> entries =
        Arrays.stream(tests.split(File.pathSeparator)).map(e -> e.replace('\\', '/')).toList();
    for (String w : wanted) {
      if (entries.stream().noneMatch(e -> e.contains(w))) {
        throw new IllegalStateException("no jar matching " + w + " on the tests' class path");
      }
    }
    return entries.stream()
        .filter(e -> Arrays.stream(wanted).anyMatch(e::contains))
        .collect(Collectors.joining(File.pathSeparator));
  }

  /**
   * A jar of one fixture class, deleted when the tests end.
   *
   * @param fixture the class's name, as {@code dev.weir.it.fixtures.StuckAgent}
   * @param manifest its manifest's main attributes beyond the version, as name, value, ...
   * @return its path
   */
  static Path ofFixture(String fixture, String... manifest) throws IOException {
    Path jar = Files.createTempFile("fixture", ".jar");
    jar.toFile().deleteOnExit();
    Manifest m = new Manifest();
    Attributes main = m.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    for (int i = 0; i < manifest.length; i += 2) {
      main.putValue(manifest[i], manifest[i + 1]);
    }
    String entry = fixture.replace('.', '/') + ".class";
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, m)) {
      out.putNextEntry(new JarEntry(entry));
      out.write(Files.readAllBytes(Paths.get(ForkedJvm.FIXTURES, entry)));
      out.closeEntry();
    }
    return jar;
  }
}
