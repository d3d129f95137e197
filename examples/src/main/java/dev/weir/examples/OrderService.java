package dev.weir.examples;

import dev.weir.TokenBucket;

/** Takes orders: bursts of up to 100 pass at once, and 50 a second on average. */
public class OrderService {

  /**
   * Places an order.
   *
   * @param order the order id
   * @throws dev.weir.RateLimitedException when the token bucket is empty (under the Weir agent)
   */
  @TokenBucket(name = "orders", rate = 50, capacity = 100)
  public void place(long order) {
    // a real service would store the order
  }
}
