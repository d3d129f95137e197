package dev.weir.agent.bootstrap.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * An address or a CIDR block of {@code http.trustedProxies}, IPv4 or IPv6, such as {@code
 * 10.0.0.0/8}, {@code 192.168.1.5} or {@code fd00::/8}. Addresses are compared as addresses: {@code
 * ::1} is {@code 0:0:0:0:0:0:0:1}, and an IPv4-mapped IPv6 address ({@code ::ffff:10.1.2.3}) is the
 * IPv4 address. Only literal addresses are accepted: a host name would need a DNS lookup. Immutable
 * and thread-safe.
 */
public final class AddressBlock {
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6_CHARACTERS = Pattern.compile("[0-9A-Fa-f:.]+");

  private final String text;
  private final byte[] network;
  private final int prefix;

  private AddressBlock(String text, byte[] network, int prefix) {
    this.text = text;
    this.network = network;
    this.prefix = prefix;
  }

  /**
   * Parses an address or a block.
   *
   * @param text {@code ADDRESS} or {@code ADDRESS/PREFIX}
   * @return the block (an address alone is a block of one)
   * @throws IllegalArgumentException naming the rule the text breaks (the caller adds the value)
   */
  public static AddressBlock parse(String text) {
    int slash = text.indexOf('/');
    String address = slash < 0 ? text : text.substring(0, slash);
    byte[] bytes = literal(address);
    if (bytes == null) {
      throw new IllegalArgumentException(
          "must be an IP address or a CIDR block (10.0.0.0/8, fd00::/8), not a host name");
    }
    int bits = bytes.length * 8;
    int prefix = bits;
    if (slash >= 0) {
      try {
        prefix = Integer.parseInt(text.substring(slash + 1));
      } catch (NumberFormatException e) {
        prefix = -1;
      }
      if (prefix < 0 || prefix > bits) {
        throw new IllegalArgumentException(
            "must have a prefix length from 0 to " + bits + " after the /");
      }
    }
    return new AddressBlock(text, mask(bytes, prefix), prefix);
  }

  /** The bytes of an IP literal (IPv4-mapped IPv6 as IPv4); null if it is not one. */
  static byte[] literal(String address) {
    boolean v4 = IPV4.matcher(address).matches();
    // the JDK takes a string for a literal (and never looks it up) only if it starts with a hex
    // digit or ':'; anything else would go to DNS, from a container thread
    boolean v6 =
        address.indexOf(':') >= 0
            && (address.charAt(0) == ':' || Character.digit(address.charAt(0), 16) >= 0)
            && IPV6_CHARACTERS.matcher(address).matches();
    if (!v4 && !v6) {
      return null;
    }
    if (v4) {
      for (String part : address.split("\\.")) {
        if (Integer.parseInt(part) > 255) {
          return null;
        }
      }
    }
    try {
      // a literal, as checked above: parsed, never looked up (an invalid one is refused)
      return InetAddress.getByName(address).getAddress();
    } catch (UnknownHostException | IllegalArgumentException e) {
      return null;
    }
  }

  /** The address with all but its first {@code prefix} bits cleared (a copy). */
  static byte[] mask(byte[] bytes, int prefix) {
    byte[] masked = bytes.clone();
    for (int i = 0; i < masked.length; i++) {
      int keep = Math.max(0, Math.min(8, prefix - i * 8));
      masked[i] &= (byte) (0xff << (8 - keep));
    }
    return masked;
  }

  /**
   * Whether the block holds an address.
   *
   * @param address an IP literal, as a connection's remote address or an {@code X-Forwarded-For}
   *     entry gives it
   * @return true if it is in the block; false for anything that is not an IP literal
   */
  public boolean contains(String address) {
    return contains(bytesOf(address));
  }

  /**
   * Whether the block holds an address parsed already.
   *
   * @param bytes from {@link #bytesOf}, or null
   * @return true if it is in the block; false for null
   */
  boolean contains(byte[] bytes) {
    return bytes != null
        && bytes.length == network.length
        && java.util.Arrays.equals(mask(bytes, prefix), network);
  }

  /**
   * An address in the one form Weir keys and compares it by: {@code ::1} and {@code [::1]:8080} are
   * {@code 0:0:0:0:0:0:0:1}, {@code ::ffff:10.1.2.3} and {@code 10.1.2.3:443} are {@code 10.1.2.3}.
   * A port after an IPv4 address or a bracketed IPv6 address, and an IPv6 zone, are dropped, as
   * some proxies write them into {@code X-Forwarded-For}.
   *
   * @param address an IP literal as a connection or a proxy header gives it
   * @return its canonical text; null if it is not an IP literal (a host name, {@code unknown})
   */
  public static String canonical(String address) {
    return canonical(bytesOf(address));
  }

  /**
   * {@link #canonical(String)} of an address parsed already.
   *
   * @param bytes from {@link #bytesOf}, or null
   * @return its canonical text; null for null
   */
  static String canonical(byte[] bytes) {
    if (bytes == null) {
      return null;
    }
    try {
      return InetAddress.getByAddress(bytes).getHostAddress();
    } catch (UnknownHostException e) {
      return null;
    }
  }

  /**
   * The bytes of an address with its brackets, port and zone dropped (IPv4-mapped IPv6 as IPv4),
   * parsed once for every block and for its canonical text.
   *
   * @param address an IP literal as a connection or a proxy header gives it
   * @return 4 or 16 bytes; null if it is not an IP literal
   */
  static byte[] bytesOf(String address) {
    String a = address.trim();
    if (a.startsWith("[")) {
      int end = a.indexOf(']');
      if (end < 0) {
        return null;
      }
      a = a.substring(1, end);
    } else if (a.indexOf('.') > 0 && a.indexOf(':') > 0 && a.indexOf(':') == a.lastIndexOf(':')) {
      a = a.substring(0, a.indexOf(':')); // 10.1.2.3:443
    }
    int zone = a.indexOf('%');
    return literal(zone < 0 ? a : a.substring(0, zone));
  }

  @Override
  public String toString() {
    return text;
  }
}
