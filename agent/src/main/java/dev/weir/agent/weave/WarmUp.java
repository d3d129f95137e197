package dev.weir.agent.weave;

/** A class the weaver weaves once, off the application's threads, to load what weaving needs. */
final class WarmUp {
  private WarmUp() {}

  static int run(int x) {
    return x + 1;
  }
}
