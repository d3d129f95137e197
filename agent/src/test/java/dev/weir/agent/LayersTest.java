package dev.weir.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.Remapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packages of the agent's main code form a strict stack (ARCHITECTURE.md, "Tiers and
 * packages"): each may use only the packages below it. Read from the compiled classes, so a fully
 * qualified name, a Javadoc-free field type or a constant inlined from a class all count, as they
 * would in the JVM.
 */
class LayersTest {
  /** From the ground up: a package may use those before it, never one after it. */
  private static final List<String> STACK =
      Arrays.asList(
          "dev/weir/agent/bootstrap",
          "dev/weir/agent/bootstrap/core",
          "dev/weir/agent/bootstrap/cluster",
          "dev/weir/agent/bootstrap/limit",
          "dev/weir/agent/bootstrap/http",
          "dev/weir/agent/config",
          "dev/weir/agent/backend",
          "dev/weir/agent/control",
          "dev/weir/agent/weave",
          "dev/weir/agent/ops");

  /** Packages that stand apart: they use no other package of the agent. */
  private static final List<String> APART = Arrays.asList("dev/weir/agent", "dev/weir/agent/cli");

  /** Each package of the agent, with the packages of the agent (and their classes) it uses. */
  private static Map<String, Set<String>> uses;

  @BeforeAll
  static void readClasses() throws IOException, URISyntaxException {
    Path classes =
        Paths.get(WeirAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    uses = new TreeMap<>();
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path file :
          files.filter(f -> f.toString().endsWith(".class")).collect(Collectors.toList())) {
        try (InputStream in = Files.newInputStream(file)) {
          read(new ClassReader(in));
        }
      }
    }
  }

  private static void read(ClassReader reader) {
    final String self = reader.getClassName();
    final String own = packageOf(self);
    final Set<String> used = uses.computeIfAbsent(own, p -> new TreeSet<>());
    Remapper collect =
        new Remapper() {
          @Override
          public String map(String internalName) {
            if (internalName.startsWith("dev/weir/agent/")
                && !packageOf(internalName).equals(own)) {
              used.add(
                  packageOf(internalName)
                      + " ("
                      + simple(self)
                      + " -> "
                      + simple(internalName)
                      + ")");
            }
            return internalName;
          }
        };
    reader.accept(new ClassRemapper(new ClassWriter(0), collect), 0);
  }

  @Test
  void everyPackageIsPlacedOnTheStackOrApart() {
    List<String> unplaced = new ArrayList<>(uses.keySet());
    unplaced.removeAll(STACK);
    unplaced.removeAll(APART);
    assertEquals(List.of(), unplaced, "packages missing from LayersTest.STACK and ARCHITECTURE.md");
  }

  @Test
  void eachPackageUsesOnlyThoseBelowIt() {
    List<String> wrong = new ArrayList<>();
    for (int i = 0; i < STACK.size(); i++) {
      List<String> below = STACK.subList(0, i);
      for (String use : uses.getOrDefault(STACK.get(i), Set.of())) {
        if (!below.contains(use.substring(0, use.indexOf(' ')))) {
          wrong.add(STACK.get(i) + " uses " + use);
        }
      }
    }
    assertEquals(List.of(), wrong, "uses that run up or sideways the stack");
  }

  @Test
  void theBootTierNeverUsesTheAgentTier() {
    // visible from every class loader, the boot tier cannot even link to the agent's own loader's
    // classes: a reference would throw NoClassDefFoundError in the application's thread
    List<String> wrong = new ArrayList<>();
    uses.forEach(
        (pkg, used) -> {
          if (pkg.startsWith("dev/weir/agent/bootstrap")) {
            for (String use : used) {
              if (!use.startsWith("dev/weir/agent/bootstrap")) {
                wrong.add(pkg + " uses " + use);
              }
            }
          }
        });
    assertEquals(List.of(), wrong);
  }

  @Test
  void theEntryPointAndTheCommandLineStandApart() {
    for (String pkg : APART) {
      assertTrue(uses.getOrDefault(pkg, Set.of()).isEmpty(), pkg + " uses " + uses.get(pkg));
    }
  }

  private static String packageOf(String internalName) {
    return internalName.substring(0, internalName.lastIndexOf('/'));
  }

  private static String simple(String internalName) {
    return internalName.substring(internalName.lastIndexOf('/') + 1);
  }
}
