package dev.weir.agent.bootstrap.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A nanosecond clock that moves only when told. {@link #parkNanos(long)} advances it by the time
 * asked, so a waiting call returns at once with the clock at its deadline; an optional hook runs on
 * each park (to interrupt the parked thread, say).
 */
public final class FakeClock implements NanoClock {
  private final AtomicLong now;
  private final AtomicLong parked = new AtomicLong();
  private volatile Runnable onPark = () -> {};

  public FakeClock(long startNanos) {
    this.now = new AtomicLong(startNanos);
  }

  @Override
  public long nanoTime() {
    return now.get();
  }

  @Override
  public void parkNanos(long nanos) {
    parked.addAndGet(nanos);
    onPark.run();
    if (!Thread.currentThread().isInterrupted()) {
      now.addAndGet(nanos);
    }
  }

  public void set(long nanos) {
    now.set(nanos);
  }

  public void advance(long nanos) {
    now.addAndGet(nanos);
  }

  public long parkedNanos() {
    return parked.get();
  }

  public void onPark(Runnable hook) {
    this.onPark = hook;
  }
}
