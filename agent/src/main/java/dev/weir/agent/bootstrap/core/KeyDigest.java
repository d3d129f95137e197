package dev.weir.agent.bootstrap.core;

import dev.weir.agent.bootstrap.CallDepth;
import java.nio.charset.Charset;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The form in which a limiter holds a key (docs/annotations.md, "Keys": a key costs a bounded size
 * whatever its length): a key of at most {@value #MAX_BYTES} bytes in UTF-8 is held as it is; a
 * longer one as {@code sha256:} and the first 128 bits of its SHA-256 (FIPS 180-4) in lowercase
 * hex, 39 characters, so a client that chooses its keys (a header, a cookie) can fill {@code
 * maxKeys} but never the heap. Cluster scope names its Redis keys by this form too, so every JVM
 * names a long key alike.
 *
 * <p>Two long keys share a bucket only if their digests' first 128 bits collide (a chance of about
 * 2<sup>-65</sup> among 2<sup>32</sup> distinct keys); a short key spelled like a digest shares the
 * bucket of the long key it names, which gives its sender nothing it could not have by sending that
 * key.
 *
 * <p>Stateless apart from one {@link MessageDigest} per thread; thread-safe.
 */
public final class KeyDigest {
  /** The longest key, in UTF-8 bytes, held as it is. */
  static final int MAX_BYTES = 64;

  /** Keys of at most this many chars are at most {@link #MAX_BYTES} bytes (3 per char at most). */
  private static final int SURELY_SHORT_CHARS = MAX_BYTES / 3;

  /**
   * What a digest needs, made when the first long key is digested, inside Weir's own section (its
   * class initialisation runs JDK code: a config limit on it must charge nothing, and a JVM that
   * never sees a long key never makes it).
   */
  private static final class Digests {
    private static final Charset UTF_8 = Charset.forName("UTF-8");

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static final ThreadLocal<MessageDigest> SHA_256 =
        new ThreadLocal<MessageDigest>() {
          @Override
          protected MessageDigest initialValue() {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              // every Java platform must provide SHA-256 (MessageDigest's own Javadoc)
              throw new IllegalStateException("this JVM has no SHA-256, which Weir's keys need", e);
            }
          }
        };
  }

  private KeyDigest() {}

  /**
   * The form a limiter holds {@code key} in.
   *
   * @param key a key value, not null
   * @return {@code key} itself if it is at most {@value #MAX_BYTES} bytes in UTF-8; else its digest
   */
  public static String of(String key) {
    return isLong(key) ? digestOf(key) : key;
  }

  /**
   * The digest of a key {@link #isLong} said is long: for a caller that looked already, so the key
   * is not measured twice.
   *
   * @param key a key longer than {@value #MAX_BYTES} bytes in UTF-8
   * @return {@code sha256:} and 32 hex digits
   */
  public static String digestOf(String key) {
    // Weir's own work: a config limit on the JDK's digests or encoders charges nothing here
    int[] section = CallDepth.enterWeir();
    try {
      return digest(key);
    } finally {
      section[0]--;
    }
  }

  /**
   * Whether a key is longer than {@value #MAX_BYTES} bytes in UTF-8 (so {@link #of} digests it).
   *
   * @param key a key value, not null
   * @return true if {@link #of} does not return it as it is
   */
  public static boolean isLong(String key) {
    return key.length() > SURELY_SHORT_CHARS && utf8Length(key) > MAX_BYTES;
  }

  private static String digest(String key) {
    byte[] hash = Digests.SHA_256.get().digest(key.getBytes(Digests.UTF_8));
    char[] text = new char[7 + 32];
    "sha256:".getChars(0, 7, text, 0);
    for (int i = 0; i < 16; i++) {
      text[7 + 2 * i] = Digests.HEX[(hash[i] >> 4) & 0xf];
      text[8 + 2 * i] = Digests.HEX[hash[i] & 0xf];
    }
    return new String(text);
  }

  /**
   * The length of {@code s} in UTF-8, as {@code String.getBytes(UTF_8)} encodes it (an unpaired
   * surrogate is one {@code ?}), counting no further than one byte past {@link #MAX_BYTES}.
   */
  private static int utf8Length(String s) {
    int bytes = 0;
    for (int i = 0, n = s.length(); i < n && bytes <= MAX_BYTES; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        bytes++;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        bytes++; // unpaired: encoded as '?'
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
