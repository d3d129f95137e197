package dev.weir.agent.backend;

import dev.weir.agent.bootstrap.cluster.Backend;
import dev.weir.agent.bootstrap.cluster.ClusterScope;
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
 * on one key, on Redis's {@code TIME}. Holds its text and SHA-1, makes one call of it ({@code
 * EVALSHA}, then {@code EVAL} where the server has not the script), and turns a bucket's settings
 * into its arguments ({@code ARGV}). Stateless but for the arguments each {@link ClusterScope}
 * keeps in its slot; thread-safe.
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
    List<String> keys = Collections.singletonList(key);
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
      long[] s = bucket.sharedSettings(permits);
      settings = new String[s.length + 1];
      for (int i = 0; i < s.length; i++) {
        settings[i] = Long.toString(s[i]);
      }
      switch (bucket.discipline()) {
        case TOKEN_BUCKET:
          settings[s.length] = "t";
          break;
        case POLICING:
          settings[s.length] = "p";
          break;
        default:
          settings[s.length] = "s";
      }
    }
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
    Object slot = scope.prepared();
    Prepared p = slot instanceof Prepared ? (Prepared) slot : null;
    if (p == null || p.bucket != bucket || p.permits != permits) {
      p = new Prepared(bucket, permits);
      scope.prepared(p);
    }
    String[] values = new String[p.settings.length + (testClock == null ? 1 : 2)];
    values[0] = OPS[op];
    System.arraycopy(p.settings, 0, values, 1, p.settings.length);
    if (testClock != null) {
      values[values.length - 1] = Long.toString(Math.floorDiv(testClock.nanoTime(), 1000L));
    }
    return Arrays.asList(values);
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
