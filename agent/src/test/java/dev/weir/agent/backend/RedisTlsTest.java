package dev.weir.agent.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.config.BackendTls;
import dev.weir.agent.config.BackendUri;
import dev.weir.agent.config.ConfigFile;
import dev.weir.redis.RedisServer;
import dev.weir.redis.SlowProxy;
import dev.weir.redis.TestCertificates;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code rediss://} against a real {@code redis-server} on a TLS port with certificates the test
 * makes (a private CA, the server's certificate, client certificates it requires): trusted through
 * {@code backendTls} alone, the JVM's own trust store left as it was.
 */
class RedisTlsTest {
  private static TestCertificates certs;
  private static RedisServer redis;
  private static int tlsPort;
  private final List<RedisBackend> backends = new ArrayList<>();

  @BeforeAll
  static void start() {
    certs = TestCertificates.make();
    tlsPort = RedisServer.freePort();
    redis = RedisServer.start(certs.serverArguments(tlsPort));
  }

  @AfterAll
  static void stop() {
    if (redis != null) {
      redis.close();
    }
  }

  @AfterEach
  void close() {
    AgentLog.capture(false);
    for (RedisBackend b : backends) {
      b.close();
    }
  }

  /** {@code backendTls} as a config file gives it, the paths absolute. */
  private static BackendTls tls(String ca, String certificate, String key) {
    StringBuilder text = new StringBuilder("backend: \"rediss://127.0.0.1:" + tlsPort + "\"\n");
    text.append("backendTls:\n");
    if (ca != null) {
      text.append("  caCertificate: \"").append(certs.file(ca)).append("\"\n");
    }
    if (certificate != null) {
      text.append("  certificate: \"").append(certs.file(certificate)).append("\"\n");
      text.append("  privateKey: \"").append(certs.file(key)).append("\"\n");
    }
    ConfigFile file = ConfigFile.parse("weir.yaml", text.append("limits: []\n").toString());
    assertEquals(List.of(), file.errors());
    return file.backendTls();
  }

  private RedisBackend backend(String uri, BackendTls tls, long timeoutMillis) throws Exception {
    RedisBackend b =
        RedisBackend.start(List.of(BackendUri.parse(uri)), timeoutMillis, "", tls, false);
    backends.add(b);
    return b;
  }

  private static BucketLimiter limiter(RedisBackend b, ClusterScope.OnFailure onFailure) {
    return RedisBackendTest.limiter(b, Discipline.TOKEN_BUCKET, 1, 2, onFailure, NanoClock.SYSTEM);
  }

  /**
   * The private CA and a client certificate through {@code backendTls} (its key as PKCS#8, PKCS#1
   * or SEC1): the calls reach the bucket in Redis, and the JVM's default TLS still trusts nothing
   * of that CA.
   */
  @ParameterizedTest
  @CsvSource({
    "client.pem, client.key",
    "client.pem, client-pkcs1.key",
    "client-ec.pem, client-ec.key"
  })
  void aPrivateCaIsTrustedThroughBackendTlsAlone(String certificate, String key) throws Exception {
    RedisBackend b =
        backend(
            "rediss://127.0.0.1:" + tlsPort,
            tls("ca.pem", certificate, key),
            RedisBackendTest.GENEROUS_MILLIS);
    SharedBucketContractTest.awaitAnswering(b);
    BucketLimiter l = limiter(b, ClusterScope.OnFailure.REJECT);
    assertEquals(0, l.acquire());
    assertEquals(0, l.acquire());
    assertTrue(l.acquire() > 0, "the third call of capacity 2 is limited: the bucket is in Redis");
    assertEquals(0, l.backendFailures());
    assertEquals(":1", redis.command("EXISTS", l.cluster().key(null)));
    assertNull(System.getProperty("javax.net.ssl.trustStore"), "the JVM's trust store is unset");
    SSLSocketFactory jvmDefault = (SSLSocketFactory) SSLSocketFactory.getDefault();
    try (SSLSocket s = (SSLSocket) jvmDefault.createSocket("127.0.0.1", tlsPort)) {
      s.setSoTimeout(5000);
      SSLException refused = assertThrows(SSLException.class, s::startHandshake);
      assertTrue(
          String.valueOf(refused.getMessage()).contains("PKIX"),
          "the JVM's default trust does not know the private CA: " + refused);
    }
  }

  /**
   * A certificate Weir cannot verify (signed by a CA it was not given, or by one only {@code
   * backendTls} could trust): one line naming the host and {@code backendTls}, the calls following
   * {@code onBackendFailure}.
   */
  @Test
  void anUnverifiableCertificateIsOneLineNamingTheHostAndBackendTls() throws Exception {
    for (BackendTls tls :
        java.util.Arrays.asList(tls("other-ca.pem", "client.pem", "client.key"), null)) {
      AgentLog.capture(true);
      RedisBackend b =
          backend("rediss://127.0.0.1:" + tlsPort, tls, RedisBackendTest.GENEROUS_MILLIS);
      assertFalse(b.awaitAnswering());
      BucketLimiter l = limiter(b, ClusterScope.OnFailure.REJECT);
      assertEquals(TimeUnit.SECONDS.toNanos(1), l.acquire());
      b.close();
      List<String> log = AgentLog.capture(false);
      System.out.println("[tls] " + log);
      assertEquals(1, log.size(), log.toString());
      assertTrue(
          log.get(0).contains("cannot verify the TLS certificate of 127.0.0.1")
              && log.get(0).contains("backendTls.caCertificate")
              && !log.get(0).contains("\n"),
          log.get(0));
    }
  }

  /** Without the client certificate the server requires: one line pointing at backendTls. */
  @Test
  void aMissingClientCertificateIsOneLineNamingBackendTls() throws Exception {
    AgentLog.capture(true);
    RedisBackend b =
        backend(
            "rediss://127.0.0.1:" + tlsPort,
            tls("ca.pem", null, null),
            RedisBackendTest.GENEROUS_MILLIS);
    assertFalse(b.awaitAnswering());
    b.close();
    List<String> log = AgentLog.capture(false);
    System.out.println("[tls] " + log);
    assertEquals(1, log.size(), log.toString());
    assertTrue(log.get(0).contains("127.0.0.1") && log.get(0).contains("backendTls"), log.get(0));
  }

  /**
   * The TLS handshake is under the call's deadline too: through a slow link (each answer 600 ms, a
   * 1 s timeout), a call that must open a new connection (handshake, then the script, flushed, and
   * its reload) is answered within its one timeout plus scheduling.
   */
  @Test
  void aHandshakeSharesTheCallsDeadline() throws Exception {
    try (SlowProxy slow = SlowProxy.start(tlsPort, 0)) {
      RedisBackend b =
          backend(
              "rediss://127.0.0.1:" + slow.port(),
              tls("ca.pem", "client.pem", "client.key"),
              RedisBackendTest.TIMEOUT_MILLIS);
      SharedBucketContractTest.awaitAnswering(b);
      BucketLimiter l = limiter(b, ClusterScope.OnFailure.LOCAL);
      assertEquals(0, l.acquire());
      assertEquals("+OK", redis.command("SCRIPT", "FLUSH"));
      b.dropIdleConnectionsForTests();
      slow.delayMillis(600);
      RedisBackendTest.Timed call = RedisBackendTest.Timed.call(l);
      System.out.println("[deadline] a new TLS connection's call over a slow link: " + call);
      assertEquals(0, call.answer(), "the local fallback admits");
      assertEquals(1, l.backendFailures());
      call.assertWithin(
          RedisBackendTest.TIMEOUT_MILLIS + RedisBackendTest.SLACK_MILLIS, "one timeout");
    }
  }
}
