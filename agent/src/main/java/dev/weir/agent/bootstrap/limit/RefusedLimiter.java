package dev.weir.agent.bootstrap.limit;

/**
 * The limiter of a method whose limit is invalid: every call throws {@link IllegalStateException}
 * with the reason, so an invalid limit fails closed instead of silently letting calls through.
 *
 * <p>Thread-safe.
 */
public final class RefusedLimiter extends Limiter {
  private final String reason;

  /**
   * Creates a limiter that refuses every call.
   *
   * @param name the limiter's name
   * @param origin where it was declared
   * @param reason the full message each call's {@link IllegalStateException} carries
   */
  public RefusedLimiter(String name, String origin, String reason) {
    super(name, origin);
    this.reason = reason;
  }

  /**
   * Refuses the call.
   *
   * @return never returns normally
   * @throws IllegalStateException always, with the reason the limit is invalid
   */
  @Override
  public long acquire() {
    throw new IllegalStateException(reason);
  }

  /**
   * Refuses the call.
   *
   * @param key ignored
   * @return never returns normally
   * @throws IllegalStateException always, with the reason the limit is invalid
   */
  @Override
  public long acquire(String key) {
    throw new IllegalStateException(reason);
  }

  @Override
  public String settings() {
    return "invalid: " + reason;
  }

  /**
   * Why the limit is invalid.
   *
   * @return the message
   */
  public String reason() {
    return reason;
  }
}
