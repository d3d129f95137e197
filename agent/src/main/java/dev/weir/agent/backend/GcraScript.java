package dev.weir.agent.backend;

import dev.weir.agent.bootstrap.cluster.Backend;
import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.cluster.SharedCharge;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.NanoClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The script of cluster scope, {@code gcra.lua}: the core's GCRA ({@link GcraBucket}) line for line
 * on one key, and its joint charge of several ({@link SharedCharge}), on Redis's {@code TIME}.
 * Holds its text and SHA-1, makes one call of it ({@code EVALSHA}, then {@code EVAL} where the
 * server has not the script), and turns a bucket's settings into its arguments ({@code ARGV}).
 * Stateless but for the arguments each {@link ClusterScope} keeps in its slot; thread-safe.
 */
final class GcraScript {
  /** The script: the core's GCRA on one key. */
  static final String SOURCE = resource("gcra.lua");

  /** Its SHA-1, as {@code EVALSHA} takes it. */
  static final String SHA = sha1(SOURCE);

  /** The operations' arguments, by operation character ({@link Backend#ACQUIRE}, ...). */
  private static final String[] OPS = new String[128];

  static {
    for (char op : new char[] {Backend.ACQUIRE, Backend.PROBE, Backend.REFUND, Backend.VIEW}) {
      OPS[op] = String.valueOf(op);
    }
  }

  private GcraScript() {}

  /**
   * One script call: EVALSHA, and EVAL if this server has not the script (yet, or any more); blocks
   * for the exchange, bounded by the connection's socket timeout.
   *
   * @param key the bucket's key
   * @param args the script's arguments ({@link #arguments})
   * @return the script's answer
   * @throws RuntimeException as the client throws it (see {@link RedisFailures})
   */
  static Object run(UnifiedJedis c, String key, List<String> args) {
    return run(c, Collections.singletonList(key), args);
  }

  /** As {@link #run(UnifiedJedis, String, List)}, on several keys (one slot of a Redis Cluster). */
  static Object run(UnifiedJedis c, List<String> keys, List<String> args) {
    try {
      return c.evalsha(SHA, keys, args);
    } catch (JedisNoScriptException e) {
      return c.eval(SOURCE, keys, args); // loads it into this server's script cache
    }
  }

  /**
   * A limiter's settings as script arguments: derived once per bucket (a live change's new one).
   */
  private static final class Prepared {
    final GcraBucket bucket;
    final long permits;
    final String[] settings;

    Prepared(GcraBucket bucket, long permits) {
      this.bucket = bucket;
      this.permits = permits;
      long[] s = bucket.sharedSettings(permits); // the discipline goes between burst and U
      settings = new String[s.length + 1];
      for (int i = 0; i < s.length; i++) {
        settings[i < DISCIPLINE ? i : i + 1] = Long.toString(s[i]);
      }
      switch (bucket.discipline()) {
        case TOKEN_BUCKET:
          settings[DISCIPLINE] = "t";
          break;
        case POLICING:
          settings[DISCIPLINE] = "p";
          break;
        default:
          settings[DISCIPLINE] = "s";
      }
    }
  }

  /** Where in a block the script reads the discipline. */
  private static final int DISCIPLINE = 9;

  /** A joint charge's header: operation, earliest and latest departure, test clock. */
  private static final int JOINT_HEADER = 4;

  /** A bucket's block of settings, as the script reads it. */
  private static final int BLOCK = 12;

  /**
   * ARGV of a joint charge ({@code j}) of the buckets {@code at} of {@code call}: the departure's
   * bounds, the test clock's reading, and each bucket's settings (kept in its scope's slot as for
   * {@link #arguments}).
   */
  static List<String> jointArguments(
      SharedCharge call, int[] at, long minWaitNanos, long maxWaitNanos, NanoClock testClock) {
    String[] values = new String[JOINT_HEADER + at.length * BLOCK];
    values[0] = "j";
    values[1] = Long.toString(minWaitNanos);
    values[2] = Long.toString(maxWaitNanos);
    values[3] = testClock == null ? "" : testMicros(testClock);
    for (int j = 0; j < at.length; j++) {
      int i = at[j];
      String[] settings = prepared(call.scope(i), call.bucket(i), call.permits(i)).settings;
      System.arraycopy(settings, 0, values, JOINT_HEADER + j * BLOCK, BLOCK);
    }
    return Arrays.asList(values);
  }

  /**
   * ARGV of an undo ({@code u}) of the buckets {@code at}: each one's settings and its states
   * before and after the charge, as {@link #jointAnswer} put them in {@code states}.
   */
  static List<String> undoArguments(
      SharedCharge call, int[] at, String[] states, NanoClock testClock) {
    String[] values = new String[JOINT_HEADER + at.length * (BLOCK + 2)];
    values[0] = "u";
    values[1] = "0";
    values[2] = "0";
    values[3] = testClock == null ? "" : testMicros(testClock);
    for (int j = 0; j < at.length; j++) {
      int i = at[j];
      int from = JOINT_HEADER + j * (BLOCK + 2);
      String[] settings = prepared(call.scope(i), call.bucket(i), call.permits(i)).settings;
      System.arraycopy(settings, 0, values, from, BLOCK);
      values[from + BLOCK] = states[2 * i];
      values[from + BLOCK + 1] = states[2 * i + 1];
    }
    return Arrays.asList(values);
  }

  /**
   * Reads a joint charge's answer for the buckets {@code at}: each one's own wait into {@code
   * call}, and when charged the states that undo it into {@code states} (two per bucket, by its
   * index in {@code call}).
   *
   * @return the departure, nanoseconds {@code >= 0}, or {@link SharedCharge#REFUSED}
   * @throws IllegalStateException if the answer is not the script's
   */
  static long jointAnswer(Object answer, SharedCharge call, int[] at, String[] states) {
    if (!(answer instanceof List)) {
      throw new IllegalStateException("weir: the joint charge answered " + answer);
    }
    List<?> reply = (List<?>) answer;
    int n = at.length;
    for (int j = 0; j < n; j++) {
      long wait = ((Long) reply.get(1 + j)).longValue();
      call.waitNanos(at[j], wait < 0 ? Long.MAX_VALUE : wait);
    }
    long departure = ((Long) reply.get(0)).longValue();
    if (departure < 0) {
      return SharedCharge.REFUSED;
    }
    for (int j = 0; j < 2 * n; j++) {
      Object state = reply.get(1 + n + j);
      states[2 * at[j / 2] + j % 2] =
          state instanceof byte[]
              ? new String((byte[]) state, StandardCharsets.UTF_8)
              : String.valueOf(state);
    }
    return departure;
  }

  /** The prepared settings of one bucket, kept in its scope's slot until they change. */
  private static Prepared prepared(ClusterScope scope, GcraBucket bucket, long permits) {
    Object slot = scope.prepared();
    Prepared p = slot instanceof Prepared ? (Prepared) slot : null;
    if (p == null || p.bucket != bucket || p.permits != permits) {
      p = new Prepared(bucket, permits);
      scope.prepared(p);
    }
    return p;
  }

  /**
   * ARGV: the operation, the settings, and in tests the test clock's reading. The settings are kept
   * in the scope's slot until its bucket or permits change.
   *
   * @param testClock the clock whose reading, in microseconds, the script takes in place of {@code
   *     TIME}; null for Redis's own
   */
  static List<String> arguments(
      ClusterScope scope, char op, GcraBucket bucket, long permits, NanoClock testClock) {
    Prepared p = prepared(scope, bucket, permits);
    String[] values = new String[p.settings.length + (testClock == null ? 1 : 2)];
    values[0] = OPS[op];
    System.arraycopy(p.settings, 0, values, 1, p.settings.length);
    if (testClock != null) {
      values[values.length - 1] = testMicros(testClock);
    }
    return Arrays.asList(values);
  }

  /** The test clock's reading in whole microseconds, as the script takes it in place of TIME. */
  private static String testMicros(NanoClock testClock) {
    return Long.toString(Math.floorDiv(testClock.nanoTime(), 1000L));
  }

  private static String resource(String name) {
    try (InputStream in = GcraScript.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("weir: the agent jar lacks " + name);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[4096];
      for (int n; (n = in.read(buffer)) > 0; ) {
        out.write(buffer, 0, n);
      }
      return new String(out.toByteArray(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("weir: cannot read " + name + " from the agent jar", e);
    }
  }

  private static String sha1(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (byte b : digest) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("weir: no SHA-1 in this JVM", e);
    }
  }
}
