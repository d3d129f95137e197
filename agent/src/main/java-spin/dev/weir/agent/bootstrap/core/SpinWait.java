package dev.weir.agent.bootstrap.core;

/**
 * {@code Thread.onSpinWait()} where the JVM has it (Java 9 and later), nothing on Java 8.
 *
 * <p>This one class is compiled for Java 8 bytecode against the newer JDK's library (it is in its
 * own source folder, see {@code agent/pom.xml}): the call below is linked only when it first runs,
 * and it runs only where the method exists, so Java 8 never resolves it. The JIT folds the constant
 * and, on Java 9 and later, compiles the call to the processor's spin-wait instruction ({@code
 * PAUSE} on x86).
 *
 * <p>Thread-safe: stateless.
 */
final class SpinWait {
  private static final boolean ON_SPIN_WAIT = hasOnSpinWait();

  private SpinWait() {}

  private static boolean hasOnSpinWait() {
    try {
      return !System.getProperty("java.specification.version", "1.8").startsWith("1.");
    } catch (SecurityException policyRefusesTheRead) {
      return false; // a plain spin: the same wait, without the hint
    }
  }

  /** Tells the processor the caller is in a spin-wait loop; returns at once. */
  static void hint() {
    if (ON_SPIN_WAIT) {
      Thread.onSpinWait();
    }
  }
}
