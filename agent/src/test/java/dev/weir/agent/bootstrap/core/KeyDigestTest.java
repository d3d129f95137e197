package dev.weir.agent.bootstrap.core;

import static java.util.concurrent.TimeUnit.MINUTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyChar;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.weir.agent.bootstrap.cluster.Backend;
import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.Limiter;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/** Keys longer than 64 UTF-8 bytes are held as a 128-bit SHA-256 digest, and limit as keys. */
class KeyDigestTest {
  private static String repeat(String s, int times) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < times; i++) {
      b.append(s);
    }
    return b.toString();
  }

  @Test
  void keysOfAtMost64Utf8BytesAreHeldAsTheyAre() {
    String ascii = repeat("a", 64);
    assertSame(ascii, KeyDigest.of(ascii));
    String twoByte = repeat("\u00e9", 32); // 64 bytes in UTF-8, 32 chars
    assertSame(twoByte, KeyDigest.of(twoByte));
    String fourByte = repeat("\ud83d\ude00", 16); // 16 emoji: 64 bytes, 32 chars
    assertSame(fourByte, KeyDigest.of(fourByte));
    assertSame("", KeyDigest.of(""));
  }

  @Test
  void longerKeysAreTheFirst128BitsOfTheirSha256() {
    // python3: hashlib.sha256(('a'*65).encode()).hexdigest()[:32]
    assertEquals("sha256:635361c48bb9eab14198e76ea8ab7f1a", KeyDigest.of(repeat("a", 65)));
    assertEquals("sha256:f696c24ae52af2f9f6d5feaed130d4d1", KeyDigest.of(repeat("\u00e9", 33)));
    String emoji = repeat("\ud83d\ude00", 16) + "x"; // 65 bytes
    assertTrue(KeyDigest.isLong(emoji));
    assertEquals(39, KeyDigest.of(emoji).length());
    String huge = repeat("k", 1 << 20);
    assertEquals(KeyDigest.of(huge), KeyDigest.of(new String(huge.toCharArray())), "stable");
    assertNotEquals(KeyDigest.of(huge), KeyDigest.of(huge + "k"));
  }

  @Test
  void unpairedSurrogatesCountAsTheOneByteUtf8EncodesThemAs() {
    String unpaired = repeat("\ud800", 64); // each encoded as '?': 64 bytes
    assertSame(unpaired, KeyDigest.of(unpaired));
    assertTrue(KeyDigest.isLong(unpaired + "\ud800"));
  }

  @Test
  void longKeysSharingA64BytePrefixAreDistinctBucketsAndRefundAndProbeFindThem() {
    FakeClock clock = new FakeClock(0);
    GcraBucket bucket =
        GcraBucket.create(Discipline.TOKEN_BUCKET, 1, MINUTES, 2, false, Long.MAX_VALUE, 0);
    BucketLimiter l = new BucketLimiter("long", "Test#m(java.lang.String)", bucket, 1, clock);
    String prefix = repeat("p", 64);
    String a = prefix + "a";
    String b = prefix + "b";
    assertEquals(Limiter.ADMITTED, l.acquire(a));
    assertEquals(Limiter.ADMITTED, l.acquire(new String(a.toCharArray())), "the same key");
    assertTrue(l.acquire(a) != Limiter.ADMITTED, "a's bucket of 2 is empty");
    assertEquals(Limiter.ADMITTED, l.acquire(b), "b has its own bucket");
    assertEquals(2, l.keys(), "two keys held");
    assertEquals(60_000_000_000L, l.probe(a), "a's next permit in a minute");
    l.refund(a);
    assertEquals(0, l.probe(a), "a's refund reached a's bucket");
    assertEquals(Limiter.ADMITTED, l.acquire(a));
  }

  @Test
  void aLongKeyThatLooksLikeAnIdentityIsStillWarnedOf() {
    FakeClock clock = new FakeClock(0);
    GcraBucket bucket =
        GcraBucket.create(Discipline.TOKEN_BUCKET, 1, MINUTES, 2, false, Long.MAX_VALUE, 0);
    BucketLimiter l = new BucketLimiter("ids", "Test#m(java.lang.Object)", bucket, 1, clock);
    l.keysMayBeIdentities("parameter 0 (java.lang.Object)");
    String identity = "com.example.a.rather.long.package.name.of.a.Service$Implementation@1b6d3586";
    assertTrue(KeyDigest.isLong(identity));
    l.acquire(identity);
    String warning = l.keyedBuckets().identityWarning();
    assertNotNull(warning);
    assertTrue(warning.contains(identity), warning);
  }

  @Test
  void clusterScopeNamesALongKeyByItsDigestSoEveryJvmNamesItAlike() {
    Backend backend = mock(Backend.class);
    when(backend.awaitAnswering()).thenReturn(true);
    when(backend.exchange(any(), anyChar(), any(), any(), anyLong())).thenReturn(0L);
    GcraBucket bucket =
        GcraBucket.create(Discipline.TOKEN_BUCKET, 1, MINUTES, 2, false, Long.MAX_VALUE, 0);
    ClusterScope scope = new ClusterScope(backend, "", "shared", ClusterScope.OnFailure.REJECT);
    BucketLimiter l =
        new BucketLimiter(
            "shared", "Test#m(java.lang.String)", bucket, 1, new FakeClock(0), false, scope);
    String key = repeat("a", 65);
    assertEquals(Limiter.ADMITTED, l.acquire(key));
    l.probe(key);
    l.refund(key);
    ArgumentCaptor<String> names = ArgumentCaptor.forClass(String.class);
    verify(backend, times(3)).exchange(any(), anyChar(), names.capture(), any(), anyLong());
    for (String name : names.getAllValues()) {
      assertEquals("weir:{shared:sha256:635361c48bb9eab14198e76ea8ab7f1a}", name);
    }
  }
}
