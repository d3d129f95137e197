package dev.weir.agent.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code list}: the local JVMs running Weir, with their number of limiters. Asks every JVM the JDK
 * lists at once, on {@link Jvm#async} threads, and answers by a deadline however many are slow.
 */
final class ListCommand {
  /**
   * Milliseconds after this JVM's start by which {@code list} answers, however many JVMs are slow;
   * it asks for {@link #LIST_MIN_MILLIS} at least, however slowly this JVM started.
   */
  static final long LIST_MILLIS = 1_500;

  /** Milliseconds {@code list} waits for answers at least. */
  static final long LIST_MIN_MILLIS = 500;

  /** {@code list}'s LIMITERS for a JVM that did not answer in time, or is stopped. */
  static final String NO_ANSWER = "no answer";

  /** {@code list}'s LIMITERS for a JVM that runs Weir but whose MBeans did not answer in time. */
  static final String NOT_READ = "?";

  private ListCommand() {}

  /**
   * Waits for the answers until {@link #LIST_MILLIS} after this JVM started; one that has not
   * answered by then (or is stopped) is listed as not answering, whether or not it runs Weir; one
   * that runs Weir and has not told its number of limiters by then shows {@link #NOT_READ}.
   *
   * @return the exit status, 0
   * @throws Jvm.Failure if the JDK cannot list its JVMs
   */
  static int run(PrintStream out) throws Jvm.Failure {
    String self = selfPid();
    Map<Jvm.Listed, Future<String>> asked = new LinkedHashMap<Jvm.Listed, Future<String>>();
    final Map<Jvm.Listed, AtomicReference<String>> known =
        new HashMap<Jvm.Listed, AtomicReference<String>>();
    for (final Jvm.Listed jvm : Jvm.list()) {
      if (!jvm.pid.equals(self)) {
        final AtomicReference<String> soFar = new AtomicReference<String>(NO_ANSWER);
        known.put(jvm, soFar);
        asked.put(
            jvm,
            Jvm.async(
                new Callable<String>() {
                  @Override
                  public String call() {
                    return limiters(jvm, soFar);
                  }
                }));
      }
    }
    long uptimeMillis = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
    long deadline =
        System.nanoTime()
            + TimeUnit.MILLISECONDS.toNanos(
                Math.max(LIST_MIN_MILLIS, LIST_MILLIS - Math.max(0, uptimeMillis)));
    List<String[]> rows = new ArrayList<String[]>();
    for (Map.Entry<Jvm.Listed, Future<String>> e : asked.entrySet()) {
      String count;
      try {
        count = e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException late) {
        count = known.get(e.getKey()).get();
      } catch (ExecutionException | InterruptedException | RuntimeException failed) {
        count = null;
      }
      if (count != null) {
        String name = e.getKey().name;
        rows.add(new String[] {e.getKey().pid, name.isEmpty() ? "?" : name.split(" ")[0], count});
      }
    }
    out.println(String.format(Locale.ROOT, "%-8s %-60s %9s", "PID", "MAIN CLASS", "LIMITERS"));
    for (String[] row : rows) {
      out.println(String.format(Locale.ROOT, "%-8s %-60s %9s", row[0], row[1], row[2]));
    }
    return 0;
  }

  /**
   * A listed JVM's number of limiters, read from its system properties with Weir's version (so
   * listing a JVM starts nothing in it: no management agent, no logging); {@link #NO_ANSWER}; or
   * null if it runs no Weir, or has ended, or cannot be attached to.
   *
   * @param soFar set to {@link #NOT_READ} once the JVM is known to run Weir, then to the answer
   */
  private static String limiters(Jvm.Listed listed, AtomicReference<String> soFar) {
    try (Jvm target = Jvm.open(listed)) {
      java.util.Properties properties = target.systemProperties();
      if (properties.getProperty(Jvm.MARKER) == null) {
        return null;
      }
      String told = properties.getProperty(Jvm.LIMITERS);
      if (told != null) {
        return told; // read with the version: no management agent is started in the JVM
      }
      soFar.set(NOT_READ); // an agent that tells no count (an older one): asked through its MBeans
      try {
        String[] names = (String[]) target.mbeans().getAttribute(WeirMBeans.agent(), "Limiters");
        soFar.set(String.valueOf(names.length)); // told, whether or not the close ends in time
      } catch (Jvm.NoAnswer e) {
        soFar.set(NO_ANSWER);
      } catch (Exception e) {
        soFar.set("0"); // no MBeans yet: they come with the first limiter or config file
      }
      return soFar.get();
    } catch (Jvm.Failure e) {
      return e.noAnswer ? NO_ANSWER : null;
    }
  }

  private static String selfPid() {
    String name = java.lang.management.ManagementFactory.getRuntimeMXBean().getName();
    int at = name.indexOf('@');
    return at > 0 ? name.substring(0, at) : name;
  }
}
