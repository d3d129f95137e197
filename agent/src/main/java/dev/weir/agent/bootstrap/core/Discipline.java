package dev.weir.agent.bootstrap.core;

/** The three ways a {@link GcraBucket} treats calls; each is GCRA with its own limits. */
public enum Discipline {
  /** Token bucket: bursts up to the capacity proceed at once; the rest are limited. */
  TOKEN_BUCKET("token bucket"),
  /** Leaky bucket, meter form: admitted while the water level (+1) fits; nothing waits. */
  POLICING("leaky bucket (policing)"),
  /** Leaky bucket, shaping form: every admitted call waits for its departure slot. */
  SHAPING("leaky bucket (shaping)");

  private final String description;

  Discipline(String description) {
    this.description = description;
  }

  /**
   * A short human-readable name, such as {@code token bucket}.
   *
   * @return the description
   */
  public String description() {
    return description;
  }
}
