package dev.weir.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link BytePattern} finds exactly what {@code String.contains} finds. */
class BytePatternTest {
  private static boolean contains(byte[] bytes, String text) {
    return new String(bytes, StandardCharsets.ISO_8859_1).contains(text);
  }

  @Test
  void findsWhatContainsFindsInRandomBytes() {
    Random random = new Random(20);
    String[] patterns = {
      "a", "ab", "aab", "abab", "servlet/ServletResponse;)V", "\u0001\u0000\u0015x"
    };
    for (int round = 0; round < 20_000; round++) {
      byte[] bytes = new byte[random.nextInt(40)];
      for (int i = 0; i < bytes.length; i++) {
        String alphabet = "ab\u0001\u0000x/;)V";
        bytes[i] = (byte) alphabet.charAt(random.nextInt(alphabet.length()));
      }
      String pattern = patterns[random.nextInt(patterns.length)];
      if (random.nextInt(4) == 0 && bytes.length > pattern.length()) { // plant it somewhere
        int at = random.nextInt(bytes.length - pattern.length() + 1);
        System.arraycopy(
            pattern.getBytes(StandardCharsets.ISO_8859_1), 0, bytes, at, pattern.length());
      }
      assertEquals(contains(bytes, pattern), BytePattern.of(pattern).in(bytes), pattern);
    }
  }

  @Test
  void atTheEdgesOfAClassFile() throws Exception {
    byte[] own;
    try (InputStream in = BytePatternTest.class.getResourceAsStream("BytePatternTest.class")) {
      own = in.readAllBytes();
    }
    assertTrue(BytePattern.of(new String(own, 0, 7, StandardCharsets.ISO_8859_1)).in(own));
    String tail = new String(own, own.length - 5, 5, StandardCharsets.ISO_8859_1);
    assertTrue(BytePattern.of(tail).in(own));
    String absent =
        new StringBuilder("tnesba-yllaer").reverse().toString(); // no constant of its own
    assertFalse(BytePattern.of(absent).in(own));
    assertFalse(BytePattern.of("abc").in(new byte[0]));
  }
}
