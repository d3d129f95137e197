package dev.weir.agent.cli;

import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Weir's MBeans in a JVM, as the command line reaches them: the agent's and the limiters' names,
 * how a limiter is named in the command's output ({@code NAME} or {@code NAME @LOADER}), and the
 * attach that finds them registered. Stateless; thread-safe.
 */
final class WeirMBeans {
  /** The agent MBean's name. */
  static final String AGENT = "dev.weir:type=Agent";

  /** The pattern of every limiter MBean's name. */
  static final String LIMITERS = "dev.weir:type=Limiter,*";

  private WeirMBeans() {}

  /** The agent MBean's name, parsed. */
  static ObjectName agent() {
    try {
      return new ObjectName(AGENT);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The pattern of the MBean names of the limiters named so, one per class loader.
   *
   * @throws MalformedObjectNameException never for a name quoted as needed
   */
  static ObjectName named(String limiter) throws MalformedObjectNameException {
    return new ObjectName("dev.weir:type=Limiter,name=" + quoteIfNeeded(limiter) + ",*");
  }

  private static String quoteIfNeeded(String value) {
    for (char c : ",=:\"*?\n".toCharArray()) {
      if (value.indexOf(c) >= 0) {
        return ObjectName.quote(value);
      }
    }
    return value;
  }

  /**
   * Attaches to JVM {@code pid} and checks that Weir runs there with its MBeans registered, waiting
   * up to two seconds for an agent that started a moment ago to register them; the caller closes
   * it.
   *
   * @throws Jvm.Failure with the line to print: no such JVM, no Weir in it, no MBeans yet, no
   *     answer
   */
  static Jvm open(String pid) throws Jvm.Failure {
    Jvm jvm = Jvm.attach(pid);
    try {
      if (jvm.weirVersion() == null) {
        throw new Jvm.Failure(
            "JVM "
                + pid
                + " runs no Weir agent (load one: java -jar weir-agent.jar attach "
                + pid
                + ")");
      }
      MBeanServerConnection mbeans = jvm.mbeans();
      for (int i = 0; i < 40 && !mbeans.isRegistered(agent()); i++) {
        Thread.sleep(50); // started a moment ago: its MBeans come within a second
      }
      if (!mbeans.isRegistered(agent())) {
        throw new Jvm.Failure(
            "JVM "
                + pid
                + " runs Weir with no limiter yet and no config file, so it shows no MBeans"
                + " (or an application log manager that has not loaded yet holds them back)");
      }
      return jvm;
    } catch (Exception e) {
      jvm.close();
      throw Jvm.failure(pid, e);
    }
  }

  /**
   * {@link #label(ObjectName)} of a name in its string form, without parsing one where no value is
   * quoted: an unquoted value holds no comma, so the key list splits at commas (parsing 10,000
   * names took a fifth of a second).
   */
  static String label(String mbean) throws MalformedObjectNameException {
    if (mbean.indexOf('"') >= 0) {
      return label(new ObjectName(mbean));
    }
    String name = null;
    String loader = null;
    for (String pair : mbean.substring(mbean.indexOf(':') + 1).split(",")) {
      if (pair.startsWith("name=")) {
        name = pair.substring("name=".length());
      } else if (pair.startsWith("loader=")) {
        loader = pair.substring("loader=".length());
      }
    }
    if (name == null) {
      return label(new ObjectName(mbean));
    }
    return loader == null ? name : name + " @" + loader;
  }

  /** A limiter's name as the command shows it: {@code NAME}, or {@code NAME @LOADER}. */
  static String label(ObjectName name) {
    String label = ObjectName.unquote(quoted(name.getKeyProperty("name")));
    String loader = name.getKeyProperty("loader");
    return loader == null ? label : label + " @" + loader;
  }

  private static String quoted(String value) {
    return value.startsWith("\"") ? value : ObjectName.quote(value);
  }
}
