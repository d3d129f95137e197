package dev.weir.examples;

import dev.weir.RateLimitedException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Ten seconds of two workloads limited by the Weir agent, printed as a table, one line a second.
 *
 * <ul>
 *   <li>Orders (token bucket, 50/s, burst 100): the shop opens with a rush of 200 orders at once on
 *       top of 80 a second, demand stays at 80 a second, drops to 20 a second for three seconds,
 *       and a second rush comes at second seven. Each rush passes up to the burst; under steady
 *       overload the rate holds at 50/s; the quiet spell refills the bucket.
 *   <li>Writes (leaky bucket, 20/s, queue 10): sixteen writers push rows as fast as they can. Rows
 *       leave at a constant 20 a second; writers that find the queue full are limited and retry
 *       after the time the exception tells them.
 * </ul>
 *
 * <p>Run it under the agent: {@code java -javaagent:agent/target/weir-agent.jar -jar
 * examples/target/weir-examples.jar}.
 */
public final class OrdersAndWrites {
  private static final int SECONDS = 10;
  private static final int WRITERS = 16;

  private final long start = System.nanoTime();
  private final AtomicLongArray ordersAdmitted = new AtomicLongArray(SECONDS + 1);
  private final AtomicLongArray ordersLimited = new AtomicLongArray(SECONDS + 1);
  private final AtomicLongArray writesAdmitted = new AtomicLongArray(SECONDS + 1);
  private final AtomicLongArray writesLimited = new AtomicLongArray(SECONDS + 1);
  private final AtomicLongArray writesWaited = new AtomicLongArray(SECONDS + 1);
  private final AtomicLongArray worstWaitNanos = new AtomicLongArray(SECONDS + 1);
  private final AtomicLong rows = new AtomicLong();
  private volatile boolean running = true;

  private OrdersAndWrites() {}

  public static void main(String[] args) throws Exception {
    AgentCheck.requireAgent(
        "java -javaagent:agent/target/weir-agent.jar -jar examples/target/weir-examples.jar");
    new OrdersAndWrites().run();
  }

  private void run() throws InterruptedException {
    System.out.println(
        "Orders: token bucket 50/s, burst 100.   Writes: leaky bucket 20/s, queue 10, "
            + WRITERS
            + " writers.");
    System.out.println();
    System.out.println(
        "second |  orders: admitted  limited |  writes: admitted  limited  waited  worst wait");
    System.out.println(
        "-------+----------------------------+----------------------------------------------");
    Thread orders = new Thread(this::orderClients, "orders");
    orders.start();
    Thread[] writers = new Thread[WRITERS];
    for (int i = 0; i < WRITERS; i++) {
      writers[i] = new Thread(this::writer, "writer-" + i);
      writers[i].setDaemon(true);
      writers[i].start();
    }
    for (int s = 0; s < SECONDS; s++) {
      sleepUntil(start + TimeUnit.SECONDS.toNanos(s + 1) + TimeUnit.MILLISECONDS.toNanos(20));
      System.out.printf(
          "%6d | %17d %8d | %17d %8d %7d %8d ms%n",
          s + 1,
          ordersAdmitted.get(s),
          ordersLimited.get(s),
          writesAdmitted.get(s),
          writesLimited.get(s),
          writesWaited.get(s),
          TimeUnit.NANOSECONDS.toMillis(worstWaitNanos.get(s)));
    }
    running = false;
    orders.join();
    long admitted = 0;
    long written = 0;
    for (int s = 0; s < SECONDS; s++) {
      admitted += ordersAdmitted.get(s);
      written += writesAdmitted.get(s);
    }
    System.out.println();
    System.out.printf(
        "%d orders admitted in %d s (two rushes of 100 at once, 50/s otherwise); %d rows written"
            + " (20/s).%n",
        admitted, SECONDS, written);
  }

  /** The demand: 80/s, with rushes of 200 at seconds 0 and 7, and 20/s in seconds 4 to 6. */
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
    int second = second(System.nanoTime());
    try {
      service.place(order);
      ordersAdmitted.incrementAndGet(second);
    } catch (RateLimitedException limited) {
      ordersLimited.incrementAndGet(second);
    }
  }

  /** Writes rows as fast as the downstream lets it; backs off as told when limited. */
  private void writer() {
    Downstream downstream = new Downstream();
    while (running) {
      long called = System.nanoTime();
      try {
        long departed = downstream.write(rows.incrementAndGet());
        int second = second(departed);
        long waited = departed - called;
        writesAdmitted.incrementAndGet(second);
        if (waited >= TimeUnit.MILLISECONDS.toNanos(1)) {
          writesWaited.incrementAndGet(second);
        }
        worstWaitNanos.accumulateAndGet(second, waited, Math::max);
      } catch (RateLimitedException limited) {
        writesLimited.incrementAndGet(second(called));
        sleepUntil(System.nanoTime() + limited.retryAfterNanos());
      }
    }
  }

  private int second(long nanoTime) {
    return (int) Math.min(SECONDS, Math.max(0, (nanoTime - start) / 1_000_000_000L));
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
