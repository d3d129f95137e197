package dev.weir.agent.cli;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.MBeanException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;

/**
 * {@code set PID LIMITER [rate=...] [capacity=...] [dryRun=...]}: a live change of one limiter,
 * through its MBean's attributes; prints the limiter's settings after it. Stateless.
 */
final class SetCommand {
  private SetCommand() {}

  /**
   * The changes of {@code set}, in the order applied: first a value the limiter refuses whatever
   * its permits, then the rest; capacity, rate, dry run within each.
   *
   * @param assignments the {@code KEY=VALUE} arguments
   * @return the attributes to set, in order
   * @throws WeirCommand.Usage for an unknown key or a value that does not parse
   */
  static AttributeList changes(List<String> assignments) throws WeirCommand.Usage {
    Map<String, Attribute> byName = new LinkedHashMap<String, Attribute>();
    byName.put("capacity", null);
    byName.put("rate", null);
    byName.put("dryRun", null);
    for (String assignment : assignments) {
      int eq = assignment.indexOf('=');
      String key = eq < 0 ? assignment : assignment.substring(0, eq);
      String value = eq < 0 ? "" : assignment.substring(eq + 1);
      if (!byName.containsKey(key)) {
        throw new WeirCommand.Usage(
            "set takes rate=, capacity= and dryRun=, was '" + assignment + "'");
      }
      byName.put(key, attribute(key, value));
    }
    // a value the limiter will refuse goes first, so that it is refused before anything is
    // written (the same message as the MBean's, and nothing changes); the capacity goes before
    // the rate, as it may be refused for being below a method's permits
    AttributeList list = new AttributeList();
    for (int pass = 0; pass < 2; pass++) {
      for (Attribute a : byName.values()) {
        if (a != null && refused(a) == (pass == 0)) {
          list.add(a);
        }
      }
    }
    return list;
  }

  /** The MBean attribute that {@code key=value} sets. */
  private static Attribute attribute(String key, String value) throws WeirCommand.Usage {
    try {
      if (key.equals("rate")) {
        return new Attribute("Rate", Double.parseDouble(value));
      } else if (key.equals("capacity")) {
        return new Attribute("Capacity", Long.parseLong(value.replace("_", "")));
      } else if (value.equals("true") || value.equals("false")) {
        return new Attribute("DryRun", Boolean.parseBoolean(value));
      } else {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw new WeirCommand.Usage(
          key
              + (key.equals("dryRun")
                  ? " must be true or false"
                  : key.equals("rate")
                      ? " must be a number of permits per second"
                      : " must be a whole number of permits")
              + ", was '"
              + value
              + "'");
    }
  }

  /** Whether the limiter refuses this value whatever its permits. */
  private static boolean refused(Attribute a) {
    if (a.getName().equals("Rate")) {
      double rate = (Double) a.getValue();
      return !(rate > 0) || Double.isInfinite(rate);
    }
    return a.getName().equals("Capacity") && (Long) a.getValue() < 1;
  }

  /**
   * Sets the changes on the one limiter named so, in order, and prints its settings after them.
   *
   * @return the exit status, 0
   * @throws Jvm.Failure with the line to print: no such limiter, several, a refused value
   */
  static int run(String pid, String limiter, AttributeList changes, PrintStream out)
      throws Jvm.Failure {
    try (Jvm jvm = WeirMBeans.open(pid)) {
      MBeanServerConnection mbeans = jvm.mbeans();
      ObjectName name = theOne(mbeans, pid, limiter);
      for (Object a : changes) {
        try {
          mbeans.setAttribute(name, (Attribute) a);
        } catch (RuntimeMBeanException | MBeanException e) {
          Throwable cause = e.getCause() != null ? e.getCause() : e;
          throw new Jvm.Failure(cause.getMessage());
        }
      }
      Map<String, Object> now = new HashMap<String, Object>();
      for (Object a : mbeans.getAttributes(name, new String[] {"Rate", "Capacity", "DryRun"})) {
        now.put(((Attribute) a).getName(), ((Attribute) a).getValue());
      }
      out.println(
          String.format(
              Locale.ROOT,
              "'%s': rate %s/s, capacity %s, dry run %s",
              limiter,
              Table.compact(((Number) now.get("Rate")).doubleValue(), 12),
              Table.compact(((Number) now.get("Capacity")).doubleValue(), 20),
              now.get("DryRun")));
      return 0;
    } catch (Exception e) {
      throw Jvm.failure(pid, e);
    }
  }

  /** The MBean of the limiter named so, which must be one (a name may be in several loaders). */
  private static ObjectName theOne(MBeanServerConnection mbeans, String pid, String limiter)
      throws Exception {
    Set<ObjectName> named = mbeans.queryNames(WeirMBeans.named(limiter), null);
    if (named.isEmpty()) {
      throw new Jvm.Failure("JVM " + pid + " has no limiter named '" + limiter + "'");
    }
    if (named.size() > 1) {
      throw new Jvm.Failure(
          "JVM "
              + pid
              + " has "
              + named.size()
              + " limiters named '"
              + limiter
              + "' (one per class loader): "
              + named);
    }
    return named.iterator().next();
  }
}
