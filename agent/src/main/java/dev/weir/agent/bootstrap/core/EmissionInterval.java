package dev.weir.agent.bootstrap.core;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.concurrent.TimeUnit;

/**
 * A bucket's emission interval as a whole number of ticks, in exact arithmetic: the time unit of
 * {@link GcraBucket}. Stateless and thread-safe.
 */
final class EmissionInterval {
  private static final BigInteger MAX_TPN = BigInteger.valueOf(GcraBucket.MAX_TICKS_PER_NANO);
  private static final BigInteger TWO_POW_32 = BigInteger.ONE.shiftLeft(32);

  private EmissionInterval() {}

  /**
   * The emission interval {@code per / rate} as a whole number of ticks of {@code 1/ticksPerNano}
   * ns. The rate is read as the decimal it prints as ({@code 0.1}, not the binary fraction nearest
   * to it), which is what its author wrote.
   *
   * @return {@code {ticksPerNano, intervalTicks}}, interval in {@code 1..GcraBucket.NEVER_TICKS}
   */
  static long[] of(double rate, TimeUnit per) {
    BigDecimal decimal = new BigDecimal(Double.toString(rate));
    BigInteger numerator = BigInteger.valueOf(per.toNanos(1));
    BigInteger denominator = decimal.unscaledValue();
    if (decimal.scale() >= 0) {
      numerator = numerator.multiply(BigInteger.TEN.pow(decimal.scale()));
    } else {
      denominator = denominator.multiply(BigInteger.TEN.pow(-decimal.scale()));
    }
    BigInteger gcd = numerator.gcd(denominator);
    numerator = numerator.divide(gcd);
    denominator = denominator.divide(gcd);

    long ticksPerNano;
    BigInteger ticks;
    if (denominator.compareTo(MAX_TPN) <= 0) {
      ticksPerNano = denominator.longValue(); // exact
      ticks = numerator;
    } else {
      ticksPerNano = 1;
      while (ticksPerNano < GcraBucket.MAX_TICKS_PER_NANO
          && numerator
                  .multiply(BigInteger.valueOf(ticksPerNano))
                  .compareTo(denominator.multiply(TWO_POW_32))
              < 0) {
        ticksPerNano <<= 1;
      }
      BigInteger[] qr =
          numerator.multiply(BigInteger.valueOf(ticksPerNano)).divideAndRemainder(denominator);
      ticks = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE); // round against the caller
    }
    long interval =
        ticks.compareTo(BigInteger.valueOf(GcraBucket.NEVER_TICKS)) >= 0
            ? GcraBucket.NEVER_TICKS
            : ticks.longValue();
    return new long[] {ticksPerNano, Math.max(1, interval)};
  }
}
