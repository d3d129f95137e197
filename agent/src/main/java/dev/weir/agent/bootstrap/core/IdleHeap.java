package dev.weir.agent.bootstrap.core;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A binary min-heap of (instant in nanoseconds, key), ordered by wrapping comparison of the
 * instants like {@link System#nanoTime()}: the lower bounds on when held keys go idle that a {@link
 * KeyedBuckets} table at its bound keeps (see its design comment, "The bound"). Two parallel
 * arrays, so an entry costs 12 bytes (8 with compressed references and the key shared with the
 * table); they grow by doubling and never shrink (the table drops the whole heap instead).
 *
 * <p>Not thread-safe: {@link KeyedBuckets} guards it by its lock. Entries with equal instants come
 * out in no particular order; a key may have several entries (the heap does not look for one).
 */
final class IdleHeap {
  private long[] at = new long[16];
  private String[] key = new String[16];
  private int size;

  /**
   * Builds the heap in one pass over a table's states, dropping those idle now as it goes. During a
   * shrink, the old table is read first: a state a mover claimed there (its copy may reach the new
   * table after the pass has read it) keeps its key's entry, at {@code nowNanos}, a lower bound.
   *
   * @param previous the states of the table a shrink or live change is draining; null if none
   * @param current the states of the current table
   * @param nowNanos the clock's reading
   * @param keys the key count, decremented for each state dropped
   * @return the heap, one entry per state not dropped
   */
  static IdleHeap of(
      Map<String, BucketState> previous,
      Map<String, BucketState> current,
      long nowNanos,
      AtomicInteger keys) {
    IdleHeap heap = new IdleHeap();
    if (previous != null) {
      heap.addAll(previous, nowNanos, keys);
    }
    heap.addAll(current, nowNanos, keys);
    for (int i = heap.size / 2 - 1; i >= 0; i--) {
      heap.down(i);
    }
    return heap;
  }

  private void addAll(Map<String, BucketState> map, long nowNanos, AtomicInteger keys) {
    for (Map.Entry<String, BucketState> e : map.entrySet()) {
      BucketState s = e.getValue();
      long ahead = s.bucket.retireIfIdle(s, nowNanos);
      if (ahead == 0) {
        if (map.remove(e.getKey(), s)) {
          keys.decrementAndGet();
        }
      } else if (ahead > 0) {
        add(nowNanos + s.bucket.toNanosCeil(ahead), e.getKey());
      } else {
        add(nowNanos, e.getKey()); // retired by another: moved (its copy lives on), or dropped
      }
    }
  }

  /** Appends an entry without restoring the heap order (the build restores it once, at the end). */
  private void add(long instant, String k) {
    if (size == at.length) {
      at = Arrays.copyOf(at, size * 2);
      key = Arrays.copyOf(key, size * 2);
    }
    at[size] = instant;
    key[size] = k;
    size++;
  }

  /**
   * Adds an entry.
   *
   * @param instant a clock reading, nanoseconds
   * @param k the key
   */
  void push(long instant, String k) {
    add(instant, k);
    int i = size - 1;
    while (i > 0) {
      int parent = (i - 1) / 2;
      if (at[parent] - at[i] <= 0) {
        break;
      }
      swap(i, parent);
      i = parent;
    }
  }

  /**
   * Entries held.
   *
   * @return the count, {@code >= 0}
   */
  int size() {
    return size;
  }

  /**
   * The earliest entry's instant; only while {@link #size()} {@code > 0}.
   *
   * @return nanoseconds, a clock reading
   */
  long topAt() {
    return at[0];
  }

  /**
   * The earliest entry's key; only while {@link #size()} {@code > 0}.
   *
   * @return the key
   */
  String topKey() {
    return key[0];
  }

  /** Removes the earliest entry; only while {@link #size()} {@code > 0}. */
  void pop() {
    size--;
    at[0] = at[size];
    key[0] = key[size];
    key[size] = null;
    down(0);
  }

  /**
   * Replaces the earliest entry by one for {@code instant} (a later one: the key's idle instant as
   * found), cheaper than a pop and a push; only while {@link #size()} {@code > 0}.
   *
   * @param instant nanoseconds, a clock reading
   * @param k the key
   */
  void replaceTop(long instant, String k) {
    at[0] = instant;
    key[0] = k;
    down(0);
  }

  private void down(int i) {
    for (; ; ) {
      int least = i;
      int left = 2 * i + 1;
      if (left < size && at[left] - at[least] < 0) {
        least = left;
      }
      if (left + 1 < size && at[left + 1] - at[least] < 0) {
        least = left + 1;
      }
      if (least == i) {
        return;
      }
      swap(i, least);
      i = least;
    }
  }

  private void swap(int i, int j) {
    long a = at[i];
    at[i] = at[j];
    at[j] = a;
    String k = key[i];
    key[i] = key[j];
    key[j] = k;
  }
}
