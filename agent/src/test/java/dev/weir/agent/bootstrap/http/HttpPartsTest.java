package dev.weir.agent.bootstrap.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The parts of {@code http} entries: path patterns and trusted proxy blocks. */
class HttpPartsTest {
  @Test
  void doubleStarIsAnyNumberOfSegmentsNoneIncluded() {
    PathPattern api = PathPattern.parse("/api/**");
    assertTrue(api.matches("/api"));
    assertTrue(api.matches("/api/x"));
    assertTrue(api.matches("/api/x/y/z"));
    assertFalse(api.matches("/apix"));
    assertFalse(api.matches("/"));
    PathPattern middle = PathPattern.parse("/a/**/z");
    assertTrue(middle.matches("/a/z"));
    assertTrue(middle.matches("/a/b/c/z"));
    assertFalse(middle.matches("/a/b/c"));
    assertTrue(PathPattern.parse("/**").matches("/"));
    assertTrue(PathPattern.parse("/**").matches("/anything/at/all"));
  }

  @Test
  void emptySegmentsOfAPathDoNotCount() {
    PathPattern orders = PathPattern.parse("/api/orders");
    assertTrue(orders.matches("/api/orders/"), "a trailing slash is the same path");
    assertTrue(orders.matches("/api//orders//"));
    assertTrue(PathPattern.parse("/api/items/*").matches("/api/items/1/"));
    assertTrue(PathPattern.parse("/").matches("//"));
    assertFalse(orders.matches("/api/orders/x"));
  }

  @Test
  @org.junit.jupiter.api.Timeout(10) // a guard: backtracking took seconds per request here
  void manyDoubleStarsOnALongPathTakeTimeInProportionToTheirProduct() {
    PathPattern nested = PathPattern.parse("/**/a/**/a/**/a/**/b");
    String longPath = "/a".repeat(20_000);
    assertFalse(nested.matches(longPath));
    assertTrue(nested.matches(longPath + "/b"));
    assertTrue(nested.matches("/a/a/a/b"));
    assertFalse(nested.matches("/a/a/b"));
  }

  @Test
  void starIsWithinOneSegment() {
    PathPattern one = PathPattern.parse("/orders/*");
    assertTrue(one.matches("/orders/42"));
    assertFalse(one.matches("/orders/42/items"));
    assertFalse(one.matches("/orders"));
    PathPattern partial = PathPattern.parse("/v*/users/*.json");
    assertTrue(partial.matches("/v2/users/alice.json"));
    assertFalse(partial.matches("/x2/users/alice.json"));
    assertFalse(partial.matches("/v2/users/alice.xml"));
    assertTrue(PathPattern.glob("a*b*c", "abc"));
    assertTrue(PathPattern.glob("a*b*c", "a-b-b-c"));
    assertFalse(PathPattern.glob("a*b*c", "ac"));
    assertFalse(PathPattern.glob("ab*ba", "aba"), "the ends do not overlap");
    assertTrue(PathPattern.parse("/").matches("/"));
    assertFalse(PathPattern.parse("/").matches("/x"));
  }

  @Test
  void badPatternsSayWhy() {
    assertEquals("must be a path starting with /", message("api/**"));
    assertEquals("must be a path starting with /", message(""));
    assertEquals("must have ** as a whole segment, as in /api/**", message("/api/x**"));
    assertEquals(
        "must not have . or .. segments: a normalised request path never has them",
        message("/api/../admin"));
    assertEquals("must not have empty segments (//)", message("/api//x"));
    assertEquals("must not contain spaces or control characters", message("/a b"));
    assertEquals(
        "must be a path alone: a request path as the container normalised it has no '?'",
        message("/api?x=1"));
  }

  private static String message(String pattern) {
    return assertThrows(IllegalArgumentException.class, () -> PathPattern.parse(pattern))
        .getMessage();
  }

  @Test
  void blocksCompareAddressesAsAddresses() {
    AddressBlock ten = AddressBlock.parse("10.0.0.0/8");
    assertTrue(ten.contains("10.1.2.3"));
    assertTrue(ten.contains("::ffff:10.1.2.3"), "IPv4-mapped IPv6 is the IPv4 address");
    assertFalse(ten.contains("11.0.0.1"));
    assertFalse(ten.contains("not-an-address"));
    assertFalse(ten.contains("fd00::1"));
    AddressBlock loopback = AddressBlock.parse("::1");
    assertTrue(loopback.contains("0:0:0:0:0:0:0:1"));
    assertFalse(loopback.contains("::2"));
    AddressBlock ula = AddressBlock.parse("fd00::/8");
    assertTrue(ula.contains("fdab:cd::1"));
    assertFalse(ula.contains("fe80::1"));
    assertTrue(AddressBlock.parse("192.168.1.5").contains("192.168.1.5"));
    assertFalse(AddressBlock.parse("192.168.1.5").contains("192.168.1.6"));
    assertTrue(AddressBlock.parse("0.0.0.0/0").contains("8.8.8.8"));
    assertTrue(AddressBlock.parse("10.0.0.7/29").contains("10.0.0.1"), "host bits masked");
  }

  @Test
  void onlyLiteralsAreAddressesAndNoneIsLookedUp() {
    for (String notAnAddress :
        new String[] {".:", "..:", ".:.", "unknown", "localhost", "a.b:c", "1.2.3", "::g", ""}) {
      assertEquals(null, AddressBlock.canonical(notAnAddress), notAnAddress);
    }
    assertEquals("10.1.2.3", AddressBlock.canonical(" [::ffff:10.1.2.3]:8443 "));
    assertEquals("0:0:0:0:0:0:0:1", AddressBlock.canonical("::1%lo"));
  }

  @Test
  void badBlocksSayWhy() {
    for (String bad : new String[] {"proxy.example.com", "10.0.0.256", "10.0.0", "::g"}) {
      assertEquals(
          "must be an IP address or a CIDR block (10.0.0.0/8, fd00::/8), not a host name",
          assertThrows(IllegalArgumentException.class, () -> AddressBlock.parse(bad)).getMessage(),
          bad);
    }
    assertEquals(
        "must have a prefix length from 0 to 32 after the /",
        assertThrows(IllegalArgumentException.class, () -> AddressBlock.parse("10.0.0.0/33"))
            .getMessage());
    assertEquals(
        "must have a prefix length from 0 to 128 after the /",
        assertThrows(IllegalArgumentException.class, () -> AddressBlock.parse("fd00::/x"))
            .getMessage());
  }

  @Test
  void dotSegmentsAreRemovedAsRfc3986Says() {
    // RFC 3986 §5.2.4's own examples, and §5.4's targets resolved against /b/c/d;p?q
    assertEquals("/a/g", PathPattern.removeDotSegments("/a/b/c/./../../g"));
    assertEquals("mid/6", PathPattern.removeDotSegments("mid/content=5/../6"));
    assertEquals("/g", PathPattern.removeDotSegments("/b/c/../../../g"));
    assertEquals("/b/", PathPattern.removeDotSegments("/b/c/.."));
    assertEquals("/b/c/", PathPattern.removeDotSegments("/b/c/."));
    assertEquals("/b/c/g.", PathPattern.removeDotSegments("/b/c/g."));
    assertEquals("/b/c/..g", PathPattern.removeDotSegments("/b/c/..g"));
    assertEquals("/x/a", PathPattern.removeDotSegments("/x//../a"), "an empty segment is one");
  }

  @Test
  void aPathsOtherFormsAreComputedOnlyForDotSegmentsOrParameters() {
    String[] plain = PathPattern.segments("/files/a.bin");
    assertEquals(null, PathPattern.otherForms("/files/a.bin", plain), "the usual path: nothing");
    assertEquals(
        null, PathPattern.otherForms("/files/..a/b.", PathPattern.segments("/files/..a/b.")));
    String path = "/x//../files;v=1/a";
    String[][] forms = PathPattern.otherForms(path, PathPattern.segments(path));
    assertEquals(2, forms.length);
    assertEquals(List.of("x", "files", "a"), List.of(forms[0]), "RFC 3986");
    assertEquals(List.of("files", "a"), List.of(forms[1]), "empty segments dropped first");
  }
}
