package dev.weir.agent.backend;

import dev.weir.agent.bootstrap.cluster.SharedCharge;
import dev.weir.agent.bootstrap.core.NanoClock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The joint charge of a call's cluster limits ({@link SharedCharge}) through {@code gcra.lua}'s
 * {@code j} and {@code u}.
 *
 * <p>On one Redis server it is one script call for every key: planned, given one departure and
 * charged all or nothing inside the script. On a Redis Cluster a script reaches only the keys of
 * one slot, and each limit's keys ({@code weir:{NAME}}) have a slot of their own: the slots are
 * charged in turn, one script call each, each departing no earlier than the ones before it; a slot
 * charged at an earlier departure than a later slot needed is undone and charged again at the
 * call's departure (so that every SHAPING limit still releases at its constant rate); a refusal
 * undoes the slots charged so far. The call is so charged on every bucket at one departure or on
 * none, as on one server, at the cost of one round trip per slot, and one more per slot charged
 * again or undone. What a failure between two calls left charged stays charged: less is admitted,
 * never more.
 *
 * <p>Stateless; thread-safe.
 */
final class SlotCharges {
  /** The passes over the slots before a call whose departure keeps moving is refused. */
  private static final int MAX_PASSES = 8;

  private SlotCharges() {}

  /** What undoes a call's charges: its buckets by slot, and each bucket's states. */
  static final class Charged {
    final int[][] slots;
    final String[] states;

    Charged(int[][] slots, String[] states) {
      this.slots = slots;
      this.states = states;
    }
  }

  /**
   * Charges every bucket of {@code call} at one departure, or none; the record that undoes it goes
   * to {@link SharedCharge#charged}.
   *
   * @param clusterMode whether the server is a Redis Cluster (one script call per slot)
   * @param clock the test clock the script reads; null for Redis's {@code TIME}
   * @return as {@link SharedCharge#charge}
   * @throws RuntimeException as the client throws it: what was charged before stays charged
   */
  static long charge(
      UnifiedJedis c,
      boolean clusterMode,
      SharedCharge call,
      long minWaitNanos,
      long maxWaitNanos,
      NanoClock clock) {
    int[][] slots = clusterMode ? bySlot(call) : new int[][] {every(call.size())};
    String[] states = new String[2 * call.size()];
    boolean[] held = new boolean[slots.length];
    try {
      long departure = minWaitNanos;
      for (int pass = 0; pass < MAX_PASSES; pass++) {
        long[] chargedAt = new long[slots.length];
        for (int g = 0; g < slots.length; g++) {
          long d = run(c, call, slots[g], departure, maxWaitNanos, states, clock);
          if (d == SharedCharge.REFUSED) {
            for (int later = g + 1; later < slots.length; later++) {
              run(c, call, slots[later], departure, -1, states, clock); // their waits, no charge
            }
            undoHeld(c, call, slots, held, states, clock);
            return SharedCharge.REFUSED;
          }
          held[g] = true;
          chargedAt[g] = d;
          departure = Math.max(departure, d);
        }
        if (!again(c, call, slots, held, chargedAt, departure, states, clock)) {
          call.charged(new Charged(slots, states));
          return departure;
        }
        undoHeld(c, call, slots, held, states, clock); // one needs a later departure
      }
      return SharedCharge.REFUSED; // racing calls kept moving it: refused, by the last waits
    } catch (RuntimeException e) {
      // a slot's call failed after others were charged (a key of another type, a node down):
      // those go back, so that the limits then decided alone are not charged twice
      try {
        undoHeld(c, call, slots, held, states, clock);
      } catch (RuntimeException alsoFailed) {
        e.addSuppressed(alsoFailed); // they stay charged: less is admitted, never more
      }
      throw e;
    }
  }

  /**
   * Charges again at the call's departure the slots charged at an earlier one.
   *
   * @return false if every slot now departs at {@code departure}; true if one needs a later one
   *     (charged nowhere now; {@code held} says which are still charged)
   */
  private static boolean again(
      UnifiedJedis c,
      SharedCharge call,
      int[][] slots,
      boolean[] held,
      long[] chargedAt,
      long departure,
      String[] states,
      NanoClock clock) {
    for (int g = 0; g < slots.length; g++) {
      if (chargedAt[g] < departure) {
        undoSlot(c, call, slots[g], states, clock);
        held[g] = false;
        if (run(c, call, slots[g], departure, departure, states, clock) == SharedCharge.REFUSED) {
          return true;
        }
        held[g] = true;
      }
    }
    return false;
  }

  /** Undoes the slots {@code held} marks, and clears the marks. */
  private static void undoHeld(
      UnifiedJedis c,
      SharedCharge call,
      int[][] slots,
      boolean[] held,
      String[] states,
      NanoClock clock) {
    for (int g = 0; g < slots.length; g++) {
      if (held[g]) {
        held[g] = false;
        undoSlot(c, call, slots[g], states, clock);
      }
    }
  }

  /**
   * Undoes the charges the record of {@link #charge} holds, one script call per slot.
   *
   * @throws RuntimeException as the client throws it: the charges not undone stay taken
   */
  static void undo(UnifiedJedis c, SharedCharge call, Charged charged, NanoClock clock) {
    boolean[] all = new boolean[charged.slots.length];
    java.util.Arrays.fill(all, true);
    undoHeld(c, call, charged.slots, all, charged.states, clock);
  }

  /** One script call undoing the charges of the buckets {@code at} ({@code u}). */
  private static void undoSlot(
      UnifiedJedis c, SharedCharge call, int[] at, String[] states, NanoClock clock) {
    GcraScript.run(c, keys(call, at), GcraScript.undoArguments(call, at, states, clock));
  }

  private static long run(
      UnifiedJedis c,
      SharedCharge call,
      int[] at,
      long minWaitNanos,
      long maxWaitNanos,
      String[] states,
      NanoClock clock) {
    List<String> args = GcraScript.jointArguments(call, at, minWaitNanos, maxWaitNanos, clock);
    return GcraScript.jointAnswer(GcraScript.run(c, keys(call, at), args), call, at, states);
  }

  private static List<String> keys(SharedCharge call, int[] at) {
    String[] keys = new String[at.length];
    for (int j = 0; j < at.length; j++) {
      keys[j] = call.key(at[j]);
    }
    return Arrays.asList(keys);
  }

  private static int[] every(int n) {
    int[] all = new int[n];
    for (int i = 0; i < n; i++) {
      all[i] = i;
    }
    return all;
  }

  /** The buckets of {@code call} by the cluster slot of their keys, in the order first met. */
  private static int[][] bySlot(SharedCharge call) {
    Map<Integer, List<Integer>> slots = new LinkedHashMap<Integer, List<Integer>>();
    for (int i = 0; i < call.size(); i++) {
      Integer slot = JedisClusterCRC16.getSlot(call.key(i));
      List<Integer> members = slots.get(slot);
      if (members == null) {
        members = new ArrayList<Integer>();
        slots.put(slot, members);
      }
      members.add(i);
    }
    int[][] groups = new int[slots.size()][];
    int g = 0;
    for (List<Integer> members : slots.values()) {
      groups[g] = new int[members.size()];
      for (int j = 0; j < members.size(); j++) {
        groups[g][j] = members.get(j);
      }
      g++;
    }
    return groups;
  }
}
