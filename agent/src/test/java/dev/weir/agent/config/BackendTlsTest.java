package dev.weir.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.redis.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code backendTls} and {@code backendAllowEviction} in the config file: PEM files read and
 * checked when the file is, with PKCS#8, PKCS#1 and SEC1 keys; every mistake a config error naming
 * the setting and the value.
 */
class BackendTlsTest {
  private static TestCertificates certs;

  @BeforeAll
  static void make() {
    certs = TestCertificates.make();
  }

  /** A config file in the certificates' directory (relative paths are its neighbours). */
  private static ConfigFile file(String backend, String... lines) throws Exception {
    StringBuilder text = new StringBuilder("backend: \"" + backend + "\"\n");
    for (String line : lines) {
      text.append(line).append('\n');
    }
    text.append("limits: []\n");
    Path path = certs.dir.resolve("weir-" + System.nanoTime() + ".yaml");
    Files.writeString(path, text);
    return ConfigFile.read(path.toString());
  }

  @ParameterizedTest
  @CsvSource({
    "client.pem, client.key",
    "client.pem, client-pkcs1.key",
    "client-ec.pem, client-ec.key"
  })
  void filesNextToTheConfigAreReadWithTheirKeys(String certificate, String key) throws Exception {
    String tls =
        "backendTls: { caCertificate: ca.pem, certificate: "
            + certificate
            + ", privateKey: "
            + key
            + " }";
    ConfigFile f = file("rediss://127.0.0.1:6380", tls);
    assertEquals(List.of(), f.errors());
    assertNotNull(f.backendTls());
    assertTrue(f.backendTls().trustsOwnAuthorities());
    assertNotNull(f.backendTls().sslContext().getSocketFactory());
    assertFalse(f.backendAllowEviction(), "false unless given");
    assertEquals(
        f.backendTls(),
        file("rediss://127.0.0.1:6380", tls).backendTls(),
        "the same files are the same setting: a reload keeps the connection");
  }

  @Test
  void eachPartIsOptionalAndEvictionIsAFlag() throws Exception {
    ConfigFile ca =
        file("rediss://h:1", "backendTls: { caCertificate: ca.pem }", "backendAllowEviction: true");
    assertEquals(List.of(), ca.errors());
    assertTrue(ca.backendAllowEviction());
    ConfigFile none = file("rediss://h:1");
    assertNull(none.backendTls(), "the JVM's default trust");
    assertErrors(
        List.of(":2: backendAllowEviction must be one of true, false, was yes"),
        file("redis://h:1", "backendAllowEviction: yes"));
  }

  @Test
  void everyMistakeIsAConfigErrorNamingTheSettingAndTheValue() throws Exception {
    Files.writeString(certs.dir.resolve("notes.txt"), "not a certificate\n");
    certs.openssl(
        "pkey", "-in", "client.key", "-aes256", "-passout", "pass:x", "-out", "client-enc.key");
    certs.openssl(
        "rsa",
        "-in",
        "client.key",
        "-aes256",
        "-passout",
        "pass:x",
        "-traditional",
        "-out",
        "client-enc1.key");
    Files.createDirectories(certs.dir.resolve("a-directory"));
    String dir = certs.dir.toString();
    assertErrors(
        List.of(
            ":3: backendTls.caCertificate must name a PEM file, and "
                + dir
                + "/missing.pem does not exist, was 'missing.pem'",
            ":4: backendTls.certificate must be a PEM file of certificates (-----BEGIN CERTIFICATE-----), and "
                + dir
                + "/notes.txt holds none",
            ":5: backendTls.privateKey must be a PEM file of a private key (-----BEGIN PRIVATE KEY-----, RSA PRIVATE KEY or EC PRIVATE KEY), and "
                + dir
                + "/client.pem holds only [CERTIFICATE]"),
        file(
            "rediss://h:1",
            "backendTls:",
            "  caCertificate: missing.pem",
            "  certificate: notes.txt",
            "  privateKey: client.pem"));
    List<String> directory =
        file("rediss://h:1", "backendTls: { caCertificate: a-directory }").errors();
    assertEquals(1, directory.size(), directory.toString());
    assertTrue(
        directory
            .get(0)
            .contains(
                "backendTls.caCertificate must name a PEM file that can be read, and "
                    + dir
                    + "/a-directory cannot be"),
        directory.toString());
    for (String encrypted : List.of("client-enc.key", "client-enc1.key")) {
      List<String> errors =
          file(
                  "rediss://h:1",
                  "backendTls: { certificate: client.pem, privateKey: " + encrypted + " }")
              .errors();
      assertEquals(1, errors.size(), errors.toString());
      assertTrue(
          errors
              .get(0)
              .contains(
                  "backendTls.privateKey must be unencrypted, and "
                      + dir
                      + "/"
                      + encrypted
                      + " holds an encrypted key"),
          errors.toString());
    }
    List<String> mismatch =
        file("rediss://h:1", "backendTls: { certificate: server.pem, privateKey: client.key }")
            .errors();
    assertEquals(1, mismatch.size(), mismatch.toString());
    assertTrue(
        mismatch
            .get(0)
            .contains(
                "backendTls.privateKey must be the key of certificate's first certificate (CN=127.0.0.1), and it is not"),
        mismatch.toString());
    assertErrors(
        List.of(
            ":2: backendTls.certificate and backendTls.privateKey go together (a client certificate and its key), was only certificate"),
        file("rediss://h:1", "backendTls: { certificate: client.pem }"));
    assertErrors(
        List.of(
            ":2: backendTls is for rediss:// backends (TLS), and backend redis://h:1/0 is redis://: use rediss://, or leave backendTls out"),
        file("redis://h:1", "backendTls: { caCertificate: ca.pem }"));
    assertErrors(
        List.of(
            ":2: backendTls.colour is not a known key (known: caCertificate, certificate, privateKey)"),
        file("rediss://h:1", "backendTls: { colour: blue }"));
  }

  /** The errors, each after its file's name. */
  private static void assertErrors(List<String> expected, ConfigFile f) {
    List<String> errors = f.errors();
    assertEquals(expected.size(), errors.size(), errors.toString());
    for (int i = 0; i < expected.size(); i++) {
      assertTrue(
          errors.get(i).endsWith(expected.get(i)),
          errors.get(i) + "\nexpected ..." + expected.get(i));
    }
  }
}
