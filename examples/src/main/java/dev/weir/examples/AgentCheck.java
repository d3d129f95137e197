package dev.weir.examples;

import dev.weir.RateLimitedException;
import dev.weir.TokenBucket;
import java.util.concurrent.TimeUnit;

/** Stops an example that was started without the agent, with the command that runs it. */
final class AgentCheck {
  private AgentCheck() {}

  /**
   * Exits with status 2 and prints {@code command} unless the Weir agent is attached.
   *
   * @param command how to run the example under the agent
   */
  static void requireAgent(String command) {
    if (!attached()) {
      System.err.println(
          "The Weir agent is not attached, so nothing would be limited. Run:\n  " + command);
      System.exit(2);
    }
  }

  @TokenBucket(rate = 1, per = TimeUnit.HOURS, capacity = 1)
  private static void probe() {}

  private static boolean attached() {
    try {
      probe();
      probe();
      return false;
    } catch (RateLimitedException limited) {
      return true;
    }
  }
}
