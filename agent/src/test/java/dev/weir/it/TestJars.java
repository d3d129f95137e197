package dev.weir.it;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Jars of the tests' own class path (test dependencies) for a forked JVM's class path, so no test
 * names a version or a local repository path.
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
}
