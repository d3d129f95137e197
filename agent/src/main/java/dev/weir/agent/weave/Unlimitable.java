package dev.weir.agent.weave;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The methods a config pattern may reach that Weir refuses to limit, each with the true reason
 * (SPEC "The config file", Patterns): {@code java.lang} and its subpackages, Weir's own classes,
 * and exactly the JDK methods that Weir's own acquire, weaving or logging path runs before it can
 * tell that the call is its own.
 *
 * <h2>Why a method is refused, and why the rest are not</h2>
 *
 * <p>A config limit charges only calls made outside Weir: Weir's own work runs inside a section
 * ({@code CallDepth.enterWeir}), and a call made inside one passes free. What runs <em>before</em>
 * Weir can enter a section, or outside any because it is the hot path of every limited call, would
 * be charged to a limit on it, or call itself without end (the acquire of a limit on {@code
 * AtomicLongFieldUpdater#compareAndSet} would run that method's prologue again):
 *
 * <ul>
 *   <li>the acquire path: the prologue woven into a limited method and everything it calls in the
 *       bridge, the registry, the limiter and the bucket, until it returns, on every call;
 *   <li>the weaving path: what the JVM runs to hand a loading class to Weir's transformer, until
 *       the transformer's section starts;
 *   <li>the logging path: until the logger's section starts.
 * </ul>
 *
 * <p>{@link #JDK_METHODS} lists those methods, found by running each path (the test {@code
 * OwnJdkCallsIT} records every JDK method they enter, on each JDK tested, and fails when one is
 * missing here). Every other JDK method is limitable: the JDK's HTTP clients, its streams and
 * sockets, its collections (Weir's weaving uses them inside its section, where a limit charges
 * nothing).
 *
 * <p>Immutable and thread-safe.
 */
final class Unlimitable {
  private Unlimitable() {}

  /** Which path runs a method of {@link #JDK_METHODS}. */
  private static final String ACQUIRE = "acquire";

  private static final String WEAVE = "weave";

  private static final String LOG = "log";

  /**
   * The JDK methods outside {@code java.lang} that Weir's acquire, weaving or logging path runs
   * before it can tell a call is its own: {@code binary.Class#name(descriptor)} and the path.
   */
  static final String[][] JDK_METHODS = {};

  private static final Map<String, String> PATH_BY_METHOD = index();

  private static Map<String, String> index() {
    Map<String, String> paths = new HashMap<String, String>();
    for (String[] entry : JDK_METHODS) {
      paths.put(entry[0], entry[1]);
    }
    return Collections.unmodifiableMap(paths);
  }

  /**
   * Why Weir refuses to limit a method a config pattern matched.
   *
   * @param binaryName the method's class, {@code java.util.concurrent.atomic.LongAdder}
   * @param methodName its name
   * @param descriptor its descriptor, {@code (J)V}
   * @return the reason, for the pattern's one report line; null if the method can be limited
   */
  static String why(String binaryName, String methodName, String descriptor) {
    if (binaryName.startsWith("java.lang.")) {
      return "java.lang is the JVM's own machinery (classes, strings, threads), which Weir's"
          + " limiting, weaving and logging run on";
    }
    if (isWeirs(binaryName)) {
      return "it is part of Weir";
    }
    String path = PATH_BY_METHOD.get(binaryName + "#" + methodName + descriptor);
    if (path == null) {
      return null;
    }
    if (path.equals(ACQUIRE)) {
      return "Weir's acquire path runs it on limited calls before it can tell the call is its"
          + " own, so a limit there would limit Weir itself";
    }
    if (path.equals(WEAVE)) {
      return "the JVM runs it to hand each loading class to Weir, before Weir can tell the call is"
          + " its own";
    }
    return "Weir's logging runs it before it can tell the call is its own";
  }

  /**
   * Whether a class is Weir's own: the agent's ({@code dev.weir.agent} and below, the libraries it
   * carries relocated there included) or the API's ({@code dev.weir} itself). Other packages under
   * {@code dev.weir} (Weir's examples and tests) are applications like any other.
   */
  static boolean isWeirs(String binaryName) {
    return binaryName.startsWith("dev.weir.agent.")
        || binaryName.startsWith("dev.weir.") && binaryName.indexOf('.', "dev.weir.".length()) < 0;
  }

  /**
   * The methods of {@link #JDK_METHODS}, for tests.
   *
   * @return {@code binary.Class#name(descriptor)} of each
   */
  static java.util.List<String> jdkMethods() {
    String[] names = new String[JDK_METHODS.length];
    for (int i = 0; i < names.length; i++) {
      names[i] = JDK_METHODS[i][0];
    }
    return Collections.unmodifiableList(Arrays.asList(names));
  }
}
