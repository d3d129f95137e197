package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The built jars: Java 8 bytecode throughout (the agent's users run legacy JVMs), every third-party
 * class relocated, the agent tier hidden from other class loaders, a manifest that makes it an
 * agent.
 */
class AgentJarIT {
  private static final int JAVA_8 = 52;

  @Test
  void everyClassIsJava8Bytecode() throws IOException {
    List<String> newer = new ArrayList<>();
    int checked = 0;
    for (String jar : List.of(ForkedJvm.AGENT_JAR, ForkedJvm.ANNOTATIONS_JAR)) {
      try (JarFile file = new JarFile(jar)) {
        for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
          JarEntry entry = e.nextElement();
          if (entry.getName().endsWith(".class") || entry.getName().endsWith(".classdata")) {
            checked++;
            try (InputStream in = file.getInputStream(entry)) {
              DataInputStream data = new DataInputStream(in);
              assertEquals(0xCAFEBABE, data.readInt(), entry.getName());
              data.readUnsignedShort();
              int major = data.readUnsignedShort();
              if (major > JAVA_8) {
                newer.add(entry.getName() + " (" + major + ")");
              }
            }
          }
        }
      }
    }
    assertTrue(checked > 1_000, "checked " + checked);
    assertTrue(newer.isEmpty(), "newer than Java 8: " + newer);
  }

  @Test
  void nothingOutsideDevWeirIsLeftUnrelocated() throws IOException {
    List<String> strays = new ArrayList<>();
    boolean byteBuddy = false;
    try (JarFile file = new JarFile(ForkedJvm.AGENT_JAR)) {
      for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
        String name = e.nextElement().getName();
        if (name.endsWith(".class")) {
          boolean bootstrapTier =
              name.matches("dev/weir/[A-Za-z$-]+\\.class") // the API, its package-info too
                  || name.startsWith("dev/weir/agent/bootstrap/")
                  || name.startsWith("dev/weir/agent/shaded/org/HdrHistogram/")
                  || name.startsWith("dev/weir/agent/cli/")
                  || name.equals("dev/weir/agent/WeirAgent.class");
          if (!bootstrapTier) {
            strays.add(name);
          }
        } else if (name.endsWith(".classdata")) {
          if (!name.startsWith("inst/dev/weir/agent/")) {
            strays.add(name);
          }
          byteBuddy |= name.startsWith("inst/dev/weir/agent/shaded/net/bytebuddy/");
        }
      }
    }
    assertTrue(strays.isEmpty(), "outside the tiers: " + strays);
    assertTrue(byteBuddy, "Byte Buddy is relocated into the agent tier");
  }

  @Test
  void manifestMakesItAnAgent() throws IOException {
    try (JarFile file = new JarFile(ForkedJvm.AGENT_JAR)) {
      Attributes main = file.getManifest().getMainAttributes();
      assertEquals("dev.weir.agent.WeirAgent", main.getValue("Premain-Class"));
      assertEquals("dev.weir.agent.WeirAgent", main.getValue("Agent-Class"));
      assertEquals("true", main.getValue("Can-Retransform-Classes"));
      assertTrue(main.getValue("Implementation-Version").matches("\\d+\\.\\d+\\.\\d+.*"));
    }
  }
}
