package dev.weir.agent.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An address or a CIDR block of {@code http.trustedProxies}, IPv4 or IPv6, such as {@code
 * 10.0.0.0/8}, {@code 192.168.1.5} or {@code fd00::/8}. Addresses are compared as addresses: {@code
 * ::1} is {@code 0:0:0:0:0:0:0:1}, and an IPv4-mapped IPv6 address ({@code ::ffff:10.1.2.3}) is the
 * IPv4 address. Only literal addresses are accepted: a host name would need a DNS lookup. Immutable
 * and thread-safe.
 */
public final class AddressBlock {
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
    boolean v4 = address.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    boolean v6 = address.indexOf(':') >= 0 && address.matches("[0-9A-Fa-f:.]+");
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
      return InetAddress.getByName(address).getAddress(); // a literal: no lookup is made
    } catch (UnknownHostException | IllegalArgumentException e) {
      return null;
    }
  }

  private static byte[] mask(byte[] bytes, int prefix) {
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
    byte[] bytes = literal(address.trim());
    return bytes != null
        && bytes.length == network.length
        && java.util.Arrays.equals(mask(bytes, prefix), network);
  }

  @Override
  public String toString() {
    return text;
  }
}
