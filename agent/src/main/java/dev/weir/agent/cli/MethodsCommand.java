package dev.weir.agent.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * {@code methods PID [LIMITER]}: for each limiter (or the one named), the methods it limits now,
 * then, per pattern of a config limit, what it reached but could not limit and why. Stateless.
 */
final class MethodsCommand {
  private MethodsCommand() {}

  /**
   * Prints each limiter's methods, a blank line between two limiters, in the order of their MBean
   * names.
   *
   * @param limiter the limiter's name; null for every limiter
   * @return the exit status, 0
   * @throws Jvm.Failure with the line to print: no limiter (so named), or the JVM cannot be read
   */
  static int run(String pid, String limiter, PrintStream out) throws Jvm.Failure {
    try (Jvm jvm = WeirMBeans.open(pid)) {
      MBeanServerConnection mbeans = jvm.mbeans();
      ObjectName query =
          limiter == null ? new ObjectName(WeirMBeans.LIMITERS) : WeirMBeans.named(limiter);
      List<ObjectName> names = new ArrayList<ObjectName>(mbeans.queryNames(query, null));
      if (names.isEmpty()) {
        throw new Jvm.Failure(
            limiter == null
                ? "JVM " + pid + " has no limiter yet"
                : "JVM " + pid + " has no limiter named '" + limiter + "'");
      }
      Collections.sort(names);
      boolean first = true;
      for (ObjectName name : names) {
        String[] methods;
        String[] unlimited;
        String kind;
        try {
          methods = (String[]) mbeans.getAttribute(name, "Methods");
          unlimited = (String[]) mbeans.getAttribute(name, "Unlimited");
          kind = String.valueOf(mbeans.getAttribute(name, "Kind"));
        } catch (javax.management.InstanceNotFoundException gone) {
          continue; // its class loader went meanwhile
        }
        if (!first) {
          out.println();
        }
        first = false;
        out.println(WeirMBeans.label(name) + " (" + kind + ")");
        out.println(
            "  limits "
                + methods.length
                + (methods.length == 1 ? " method" : " methods")
                + (methods.length == 0 ? " now" : ":"));
        for (String method : methods) {
          out.println("    " + method);
        }
        printUnlimited(unlimited, out);
      }
      return 0;
    } catch (Exception e) {
      throw Jvm.failure(pid, e);
    }
  }

  /** The {@code Unlimited} lines ({@code PATTERN: METHOD: WHY}), grouped by pattern. */
  private static void printUnlimited(String[] unlimited, PrintStream out) {
    Map<String, List<String>> byPattern = new LinkedHashMap<String, List<String>>();
    for (String line : unlimited) {
      int colon = line.indexOf(": ");
      String pattern = colon < 0 ? "" : line.substring(0, colon);
      String rest = colon < 0 ? line : line.substring(colon + 2);
      List<String> lines = byPattern.get(pattern);
      if (lines == null) {
        lines = new ArrayList<String>();
        byPattern.put(pattern, lines);
      }
      lines.add(rest);
    }
    for (Map.Entry<String, List<String>> e : byPattern.entrySet()) {
      List<String> notLimited = new ArrayList<String>();
      for (String line : e.getValue()) {
        if (line.startsWith("matched no method yet")) {
          out.println("  pattern " + e.getKey() + ": " + line);
        } else {
          notLimited.add(line);
        }
      }
      if (!notLimited.isEmpty()) {
        out.println(
            "  pattern "
                + e.getKey()
                + " reached "
                + notLimited.size()
                + (notLimited.size() == 1 ? " method" : " methods")
                + " it could not limit:");
        for (String line : notLimited) {
          out.println("    " + line);
        }
      }
    }
  }
}
