package dev.weir.examples;

import dev.weir.RateLimitedException;
import dev.weir.TokenBucket;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A partner API allows 10 calls a second and 1,000 a day: two limits on one method, all or nothing.
 * {@link #quote()} carries both as annotations; {@link #legacyQuote()} carries none, and {@code
 * examples/weir-partner.yaml} gives it the same two limits from the config file.
 *
 * <p>Run under the agent, it makes a rush of 25 calls at the start of each second for {@value
 * #SECONDS} seconds and prints, per second, the calls admitted and refused, the limit that refused
 * them, and the day's quota left as its MBean reads it: the per-second limit refuses 15 of each 25,
 * and the day's quota pays only for the 10 admitted.
 */
public final class PartnerQuota {
  private static final int SECONDS = 5;
  private static final int RUSH = 25;

  private PartnerQuota() {}

  /** A call to the partner's API. */
  @TokenBucket(name = "partner-per-second", rate = 10)
  @TokenBucket(name = "partner-per-day", rate = 1000, per = TimeUnit.DAYS)
  static void quote() {}

  /** The same call in code that cannot be edited: limited by weir-partner.yaml. */
  static void legacyQuote() {}

  public static void main(String[] args) throws Exception {
    boolean legacy = args.length > 0 && args[0].equals("config");
    AgentCheck.requireAgent(
        legacy
            ? "java -javaagent:agent/target/weir-agent.jar=config=examples/weir-partner.yaml"
                + " -cp examples/target/weir-examples.jar dev.weir.examples.PartnerQuota config"
            : "java -javaagent:agent/target/weir-agent.jar"
                + " -cp examples/target/weir-examples.jar dev.weir.examples.PartnerQuota");
    String prefix = legacy ? "legacy-partner" : "partner";
    ObjectName day = new ObjectName("dev.weir:type=Limiter,name=" + prefix + "-per-day");
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Runnable call = legacy ? PartnerQuota::legacyQuote : PartnerQuota::quote;
    waitForBean(server, day);
    System.out.println(
        "second | demand admitted refused  refused by                | day quota left");
    System.out.println(
        "-------+----------------------------------------------------+---------------");
    RateLimitedException last = null;
    int admittedInAll = 0;
    for (int second = 1; second <= SECONDS; second++) {
      long rushStart = System.nanoTime();
      int admitted = 0;
      String refusedBy = "";
      for (int i = 0; i < RUSH; i++) {
        try {
          call.run();
          admitted++;
        } catch (RateLimitedException e) {
          refusedBy = e.limiterName();
          last = e;
        }
      }
      admittedInAll += admitted;
      System.out.printf(
          "%6d | %6d %8d %7d  %-25s | %14s%n",
          second,
          RUSH,
          admitted,
          RUSH - admitted,
          refusedBy,
          server.getAttribute(day, "AvailablePermits"));
      // the next rush a second (and a margin) after this one began: the 10 tokens taken from its
      // first call on are back by then, whatever the scheduler did
      long next = rushStart + TimeUnit.MILLISECONDS.toNanos(1020);
      TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
    }
    System.out.println(
        admittedInAll
            + " of "
            + RUSH * SECONDS
            + " calls admitted in "
            + SECONDS
            + " s; the last refusal: "
            + last.getMessage());
  }

  private static void waitForBean(MBeanServer server, ObjectName name) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!server.isRegistered(name) && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(50); // Weir registers its MBeans off the application's start
    }
  }
}
