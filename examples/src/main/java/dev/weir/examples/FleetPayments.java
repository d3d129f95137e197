package dev.weir.examples;

import dev.weir.RateLimitedException;
import dev.weir.TokenBucket;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * One limit for a fleet: a payment provider takes 100 calls a second from all instances together.
 * {@link #charge()} says 100/s for one JVM; the config file ({@code examples/weir-fleet.yaml})
 * overrides it by name with {@code scope: cluster}, so the instances share one bucket in Redis.
 *
 * <p>Run under the agent, it starts two instances (two JVMs with the same agent and config), each
 * calling {@code charge()} as fast as its client would for {@value #SECONDS} seconds, and prints
 * each instance's admitted calls per second beside their sum: the sum holds at 100/s.
 */
public final class FleetPayments {
  private static final int INSTANCES = 2;
  private static final int SECONDS = 5;

  private FleetPayments() {}

  /** A call to the payment provider. */
  @TokenBucket(name = "payments", rate = 100, capacity = 20)
  static void charge() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("instance")) {
      instance();
      return;
    }
    List<Process> instances = new ArrayList<>();
    for (int i = 0; i < INSTANCES; i++) {
      List<String> command = new ArrayList<>();
      command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments()); // the agent
      command.add("-cp");
      command.add(System.getProperty("java.class.path"));
      command.add(FleetPayments.class.getName());
      command.add("instance");
      instances.add(new ProcessBuilder(command).redirectErrorStream(true).start());
    }
    // instance -> second -> admitted
    List<Map<Integer, Long>> admitted = new ArrayList<>();
    List<String> scopes = new ArrayList<>();
    List<String> other = new ArrayList<>();
    for (Process p : instances) {
      Map<Integer, Long> perSecond = new TreeMap<>();
      String scope = "?";
      try (BufferedReader in =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          if (line.startsWith("second=")) {
            String[] f = line.split(" ");
            perSecond.put(Integer.parseInt(f[0].substring(7)), Long.parseLong(f[1].substring(9)));
          } else if (line.startsWith("scope=")) {
            scope = line.substring(6);
          } else if (!line.contains("Sharing is only supported")) {
            other.add(line);
          }
        }
      }
      p.waitFor();
      admitted.add(perSecond);
      scopes.add(scope);
    }
    for (String line : other) {
      System.out.println(line);
    }
    System.out.println("second | instance 1 | instance 2 | together (limit 100/s, burst 20)");
    System.out.println("-------+------------+------------+----------------------------------");
    long total = 0;
    for (int s = 1; s <= SECONDS; s++) {
      long a = admitted.get(0).getOrDefault(s, 0L);
      long b = admitted.get(1).getOrDefault(s, 0L);
      total += a + b;
      System.out.printf("%6d | %10d | %10d | %10d%n", s, a, b, a + b);
    }
    System.out.printf(
        "Together: %d calls admitted in %d s; 'payments' scope: %s, %s%n",
        total, SECONDS, scopes.get(0), scopes.get(1));
  }

  /** One instance: calls for {@value #SECONDS} seconds, printing its admitted calls per second. */
  private static void instance() throws Exception {
    try {
      charge(); // connected before the first second counts
    } catch (RateLimitedException e) {
      // the other instance took the burst first
    }
    long start = System.nanoTime();
    for (int second = 1; second <= SECONDS; second++) {
      long end = start + second * 1_000_000_000L;
      long admitted = 0;
      while (System.nanoTime() < end) {
        try {
          charge();
          admitted++;
        } catch (RateLimitedException e) {
          // the provider's quota is spent for now: a real client would back off
        }
        Thread.sleep(0, 500_000);
      }
      System.out.println("second=" + second + " admitted=" + admitted);
    }
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    System.out.println(
        "scope="
            + server.getAttribute(new ObjectName("dev.weir:type=Limiter,name=payments"), "Scope"));
  }
}
