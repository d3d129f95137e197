package dev.weir.agent.weave;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A run of ASCII characters looked for in class files (a name in the constant pool, say) without
 * copying them: Horspool's search, which jumps by up to the pattern's length at each byte that
 * cannot end a match. It reads a few hundred of a class file's bytes where a copy into a string and
 * {@code indexOf} read them all and allocate as many: half the time at start-up, when every class
 * that loads is looked at and the code runs interpreted. Immutable and thread-safe.
 */
final class BytePattern {
  private final byte[] pattern;

  /** For each byte value: how far a window whose last byte it is may move on. */
  private final int[] skip = new int[256];

  private BytePattern(byte[] pattern) {
    this.pattern = pattern;
    Arrays.fill(skip, pattern.length);
    for (int i = 0; i < pattern.length - 1; i++) {
      skip[pattern[i] & 0xFF] = pattern.length - 1 - i;
    }
  }

  /**
   * A pattern of these characters.
   *
   * @param ascii at least one character, each below 128
   * @return the pattern
   */
  static BytePattern of(String ascii) {
    if (ascii.isEmpty()) {
      throw new IllegalArgumentException("an empty pattern");
    }
    return new BytePattern(ascii.getBytes(StandardCharsets.ISO_8859_1));
  }

  /**
   * Whether the bytes hold the pattern.
   *
   * @param bytes a class file
   * @return true if the pattern occurs in it
   */
  boolean in(byte[] bytes) {
    int last = pattern.length - 1;
    byte end = pattern[last];
    for (int at = last; at < bytes.length; ) {
      byte b = bytes[at];
      if (b == end) {
        int i = 0;
        int start = at - last;
        while (i < last && bytes[start + i] == pattern[i]) {
          i++;
        }
        if (i == last) {
          return true;
        }
        at++;
      } else {
        at += skip[b & 0xFF];
      }
    }
    return false;
  }
}
