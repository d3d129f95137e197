package dev.weir.agent.bootstrap.core;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The heap of idle instants: its order, what it removes and builds, and its growth. */
class IdleHeapTest {
  private static final long MS = 1_000_000L;

  /** 10 permits a second, 5 at most: each permit taken at 0 puts the idle instant 100 ms later. */
  private final GcraBucket bucket =
      GcraBucket.create(Discipline.TOKEN_BUCKET, 10, SECONDS, 5, false, Long.MAX_VALUE, 0);

  private static IdleHeap empty() {
    return IdleHeap.of(null, new ConcurrentHashMap<String, BucketState>(), 0, new AtomicInteger());
  }

  /** A state that took {@code permits} at 0: idle at {@code permits * 100 ms}. */
  private BucketState busy(long permits) {
    BucketState s = bucket.newState(0);
    assertEquals(0, bucket.acquire(s, 0, permits, false));
    return s;
  }

  private static List<String> drain(IdleHeap heap) {
    List<String> keys = new ArrayList<String>();
    while (heap.size() > 0) {
      keys.add(heap.topKey());
      heap.pop();
    }
    return keys;
  }

  @Test
  void popsTheEarliestFirst() {
    List<Integer> order = new ArrayList<Integer>();
    for (int i = 0; i < 100; i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(7));
    IdleHeap heap = empty();
    for (int i : order) {
      heap.push(i * MS, "k" + i);
    }
    assertEquals(100, heap.size());
    for (int i = 0; i < 100; i++) {
      assertEquals(i * MS, heap.topAt());
      assertEquals("k" + i, heap.topKey());
      heap.pop();
      assertEquals(99 - i, heap.size());
    }
  }

  @Test
  void comparesInstantsAsNanoTimeDoesAcrossTheWrap() {
    IdleHeap heap = empty();
    heap.push(Long.MIN_VALUE + 10, "after the wrap");
    heap.push(Long.MAX_VALUE - 10, "before the wrap");
    heap.push(Long.MIN_VALUE + 5, "just after the wrap");
    assertEquals(Long.MAX_VALUE - 10, heap.topAt());
    assertEquals(List.of("before the wrap", "just after the wrap", "after the wrap"), drain(heap));
  }

  @Test
  void replaceTopPutsTheCorrectedEntryInItsPlace() {
    IdleHeap heap = empty();
    heap.push(100, "a");
    heap.push(200, "b");
    heap.push(300, "c");
    heap.replaceTop(250, "a"); // a goes idle later than its entry said
    assertEquals(3, heap.size());
    assertEquals(200, heap.topAt());
    assertEquals(List.of("b", "a", "c"), drain(heap));
  }

  @Test
  void popRemovesTheTopOnlyAndKeysMayRepeat() {
    IdleHeap heap = empty();
    heap.push(300, "a");
    heap.push(100, "a"); // a key's later, earlier entry (a give-back): both are kept
    heap.push(200, "b");
    heap.pop();
    assertEquals(2, heap.size());
    assertEquals(200, heap.topAt());
    assertEquals(List.of("b", "a"), drain(heap));
    assertEquals(0, heap.size());
  }

  @Test
  void growsPastItsFirstArraysKeepingEveryEntry() {
    IdleHeap heap = empty();
    for (int i = 1000; i > 0; i--) { // descending: every push sifts to the top
      heap.push(i, "k" + i);
    }
    assertEquals(1000, heap.size());
    for (int i = 1; i <= 1000; i++) {
      assertEquals(i, heap.topAt());
      assertEquals("k" + i, heap.topKey());
      heap.pop();
    }
    assertEquals(0, heap.size());
  }

  @Test
  void buildingDropsIdleStatesAndEntersEachOtherAtItsIdleInstant() {
    ConcurrentHashMap<String, BucketState> map = new ConcurrentHashMap<String, BucketState>();
    map.put("idle", bucket.newState(0));
    map.put("three", busy(3));
    map.put("one", busy(1));
    BucketState retired = busy(2);
    GcraBucket.claim(retired); // retired by another, say a mover: entered at now, a lower bound
    map.put("retired", retired);
    AtomicInteger keys = new AtomicInteger(4);

    IdleHeap heap = IdleHeap.of(null, map, 50 * MS, keys);

    assertEquals(3, keys.get(), "the idle state was dropped and counted off");
    assertFalse(map.containsKey("idle"));
    assertSame(
        retired, map.get("retired"), "a state retired by another is its retirer's to remove");
    assertEquals(3, heap.size());
    assertEquals(50 * MS, heap.topAt());
    assertEquals("retired", heap.topKey());
    heap.pop();
    assertEquals(100 * MS, heap.topAt());
    assertEquals("one", heap.topKey());
    heap.pop();
    assertEquals(300 * MS, heap.topAt());
    assertEquals("three", heap.topKey());
  }

  @Test
  void buildingReadsTheDrainedTableToo() {
    ConcurrentHashMap<String, BucketState> previous = new ConcurrentHashMap<String, BucketState>();
    ConcurrentHashMap<String, BucketState> current = new ConcurrentHashMap<String, BucketState>();
    previous.put("old", busy(2));
    previous.put("old idle", bucket.newState(0));
    current.put("new", busy(1));
    AtomicInteger keys = new AtomicInteger(3);

    IdleHeap heap = IdleHeap.of(previous, current, 0, keys);

    assertEquals(2, keys.get());
    assertTrue(previous.containsKey("old") && !previous.containsKey("old idle"));
    assertEquals(List.of("new", "old"), drain(heap));
  }
}
