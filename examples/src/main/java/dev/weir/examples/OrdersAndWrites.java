package dev.weir.examples;

import dev.weir.RateLimitedException;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Ten seconds of two workloads limited by the Weir agent, printed as a table, one line a second:
 * the demand (calls the program made) next to what Weir admitted and limited, read from the
 * limiters' MBeans ({@code dev.weir:type=Limiter,name=...}), as an operator sees them.
 *
 * <ul>
 *   <li>Orders (token bucket, 50/s, burst 100): the shop opens with a rush of 200 orders at once on
 *       top of 80 a second, demand stays at 80 a second, drops to 20 a second for three seconds,
 *       and a second rush comes at second eight. Each rush passes up to the tokens on hand (the
 *       column {@code left} shows them at the end of each second); under steady overload the rate
 *       holds at 50/s; the quiet spell refills the bucket.
 *   <li>Writes (leaky bucket, 20/s, queue 10): sixteen writers push rows as fast as they can. Rows
 *       leave at a constant 20 a second; writers that find the queue full are limited and retry
 *       after the time the exception tells them; the admitted ones wait for their slot (the p99
 *       wait, over the last minute).
 * </ul>
 *
 * <p>Run it under the agent: {@code java -javaagent:agent/target/weir-agent.jar -jar
 * examples/target/weir-examples.jar}.
 */
public final class OrdersAndWrites {
  private static final int SECONDS = 10;
  private static final int WRITERS = 16;

  private final long start = System.nanoTime();
  private final AtomicLong orderDemand = new AtomicLong();
  private final AtomicLong writeDemand = new AtomicLong();
  private final AtomicLong rows = new AtomicLong();
  private volatile boolean running = true;

  private OrdersAndWrites() {}

  public static void main(String[] args) throws Exception {
    AgentCheck.requireAgent(
        "java -javaagent:agent/target/weir-agent.jar -jar examples/target/weir-examples.jar");
    new OrdersAndWrites().run();
  }

  /** One limiter's MBean, and its counts at the last reading. */
  private static final class Meter {
    final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    final ObjectName name;
    long granted;
    long rejected;

    Meter(String limiter) throws Exception {
      name = new ObjectName("dev.weir:type=Limiter,name=" + limiter);
    }

    /** Admitted and limited since the last reading. */
    long[] delta() throws Exception {
      if (!server.isRegistered(name)) {
        return new long
            [2]; // it appears within a second of the limiter's creation, 3 s of the start
      }
      long g = (Long) server.getAttribute(name, "Granted");
      long r = (Long) server.getAttribute(name, "Rejected");
      long[] d = {g - granted, r - rejected};
      granted = g;
      rejected = r;
      return d;
    }

    /** A numeric attribute; 0 until the MBean appears (up to 3 s after the agent starts). */
    Number get(String attribute) throws Exception {
      return server.isRegistered(name) ? (Number) server.getAttribute(name, attribute) : 0;
    }
  }

  private void run() throws Exception {
    printHeader();
    Thread orders = new Thread(this::orderClients, "orders");
    orders.start();
    Thread[] writers = new Thread[WRITERS];
    for (int i = 0; i < WRITERS; i++) {
      writers[i] = new Thread(this::writer, "writer-" + i);
      writers[i].setDaemon(true);
      writers[i].start();
    }
    Meter ordersMeter = new Meter("orders");
    Meter writesMeter = new Meter("downstream-writes");
    long lastOrders = 0;
    long lastWrites = 0;
    long[] totals = new long[4];
    for (int s = 0; s < SECONDS; s++) {
      // just before the second ends, so that a rush at its start falls in the row of its second
      sleepUntil(start + TimeUnit.SECONDS.toNanos(s + 1) - TimeUnit.MILLISECONDS.toNanos(50));
      long[] o = ordersMeter.delta(); // first: a call counts its demand before Weir sees it
      long[] w = writesMeter.delta();
      long ordered = orderDemand.get();
      long written = writeDemand.get();
      totals[0] += ordered - lastOrders;
      totals[1] += o[0];
      totals[2] += written - lastWrites;
      totals[3] += w[0];
      System.out.printf(
          Locale.ROOT,
          "%6d | %15d %8d %7d %4d | %14d %8d %7d %7d %5.0f ms%n",
          s + 1,
          ordered - lastOrders,
          o[0],
          o[1],
          ordersMeter.get("AvailablePermits").longValue(),
          written - lastWrites,
          w[0],
          w[1],
          writesMeter.get("Waiting").intValue(),
          writesMeter.get("WaitP99Millis").doubleValue());
      lastOrders = ordered;
      lastWrites = written;
    }
    running = false;
    orders.join();
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "Orders: %d of %d admitted in %d s (each rush up to the tokens on hand, 50/s otherwise);"
            + " writes: %d of %d admitted (20/s).%n",
        totals[1],
        totals[0],
        SECONDS,
        totals[3],
        totals[2]);
  }

  /** The lines above the table: what runs, and the table's titles. */
  private static void printHeader() {
    System.out.println(
        "Orders: token bucket 50/s, burst 100.   Writes: leaky bucket 20/s, queue 10, "
            + WRITERS
            + " writers.");
    System.out.println(
        "Per second; admitted, limited, left, waiting and p99 wait from the MBeans.");
    System.out.println();
    System.out.println(
        "second |  orders: demand admitted limited left |  writes: demand admitted limited"
            + " waiting p99 wait");
    System.out.println(
        "-------+---------------------------------------+-----------------------------------"
            + "---------------");
  }

  /** The demand: 80/s, with rushes of 200 at the start of seconds 1 and 8, 20/s in 5 to 7. */
  private void orderClients() {
    OrderService service = new OrderService();
    long order = 0;
    for (int s = 0; s < SECONDS && running; s++) {
      long secondStart = start + TimeUnit.SECONDS.toNanos(s);
      sleepUntil(secondStart);
      int rush = (s == 0 || s == 7) ? 200 : 0;
      int steady = s >= 4 && s <= 6 ? 20 : 80;
      for (int i = 0; i < rush; i++) {
        placeOrder(service, order++);
      }
      for (int i = 0; i < steady && running; i++) {
        sleepUntil(secondStart + TimeUnit.SECONDS.toNanos(1) * i / steady);
        placeOrder(service, order++);
      }
    }
  }

  private void placeOrder(OrderService service, long order) {
    orderDemand.incrementAndGet();
    try {
      service.place(order);
    } catch (RateLimitedException limited) {
      // the MBean counts it
    }
  }

  /** Writes rows as fast as the downstream lets it; backs off as told when limited. */
  private void writer() {
    Downstream downstream = new Downstream();
    while (running) {
      writeDemand.incrementAndGet();
      try {
        downstream.write(rows.incrementAndGet());
      } catch (RateLimitedException limited) {
        sleepUntil(System.nanoTime() + limited.retryAfterNanos());
      }
    }
  }

  private static void sleepUntil(long deadline) {
    for (long left; (left = deadline - System.nanoTime()) > 0; ) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
