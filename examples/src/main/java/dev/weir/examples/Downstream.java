package dev.weir.examples;

import dev.weir.LeakyBucket;

/** Writes to a system that can only take a steady 20 writes a second, with 10 queued at most. */
public class Downstream {

  /**
   * Writes a row. Under the Weir agent the call waits for its departure slot, so rows leave at a
   * constant rate; when 10 calls are already queued, it is rejected at once.
   *
   * @param row the row id
   * @return the instant ({@link System#nanoTime()}) the write left the queue
   * @throws dev.weir.RateLimitedException when the queue is full (under the Weir agent)
   */
  @LeakyBucket(name = "downstream-writes", rate = 20, capacity = 10)
  public long write(long row) {
    return System.nanoTime();
  }
}
