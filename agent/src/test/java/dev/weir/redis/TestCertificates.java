package dev.weir.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates a test makes with the machine's {@code openssl} (the Debian package {@code openssl};
 * {@code .ci/run} installs it): a private CA, a server certificate it signs for {@code 127.0.0.1}
 * and {@code localhost}, a client certificate it signs (its key as PKCS#8, and the same key as
 * PKCS#1), an EC client certificate with a SEC1 key, and a second CA that signs nothing of these.
 * All in one temporary directory, valid for two days.
 */
public final class TestCertificates {
  /** The directory that holds them. */
  public final Path dir;

  private TestCertificates(Path dir) {
    this.dir = dir;
  }

  /**
   * Makes the certificates in a new temporary directory.
   *
   * @return them
   */
  public static TestCertificates make() {
    try {
      Path dir = Files.createTempDirectory("weir-tls");
      TestCertificates c = new TestCertificates(dir);
      Files.writeString(
          dir.resolve("server.ext"),
          "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
              + "extendedKeyUsage=serverAuth\n"
              + "keyUsage=critical,digitalSignature,keyEncipherment\n");
      Files.writeString(
          dir.resolve("client.ext"),
          "extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n");
      c.ca("ca");
      c.ca("other-ca");
      c.signed("server", "rsa", "/CN=127.0.0.1", "server.ext");
      c.signed("client", "rsa", "/CN=weir-client", "client.ext");
      c.openssl("rsa", "-in", "client.key", "-out", "client-pkcs1.key", "-traditional");
      c.openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "client-ec.key");
      c.openssl(
          "req", "-new", "-key", "client-ec.key", "-out", "client-ec.csr", "-subj", "/CN=weir-ec");
      c.sign("client-ec", "client.ext");
      return c;
    } catch (IOException e) {
      throw new IllegalStateException("cannot make test certificates", e);
    }
  }

  /**
   * A file of them.
   *
   * @param name {@code ca.pem}, {@code server.pem}, {@code server.key}, {@code client.pem}, {@code
   *     client.key} (PKCS#8), {@code client-pkcs1.key}, {@code client-ec.pem}, {@code
   *     client-ec.key} (SEC1), {@code other-ca.pem}
   * @return its path
   */
  public Path file(String name) {
    return dir.resolve(name);
  }

  /**
   * The {@code redis-server} arguments of a TLS port with the server certificate, requiring a
   * client certificate the CA signed.
   *
   * @param tlsPort the TLS port
   * @return the arguments
   */
  public String[] serverArguments(int tlsPort) {
    return new String[] {
      "--tls-port", Integer.toString(tlsPort),
      "--tls-cert-file", file("server.pem").toString(),
      "--tls-key-file", file("server.key").toString(),
      "--tls-ca-cert-file", file("ca.pem").toString(),
      "--tls-auth-clients", "yes"
    };
  }

  private void ca(String name) throws IOException {
    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        name + ".key",
        "-out",
        name + ".pem",
        "-days",
        "2",
        "-subj",
        "/CN=Weir test " + name,
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign");
  }

  private void signed(String name, String kind, String subject, String extensions)
      throws IOException {
    openssl(
        "req",
        "-newkey",
        kind + ":2048",
        "-nodes",
        "-keyout",
        name + ".key",
        "-out",
        name + ".csr",
        "-subj",
        subject);
    sign(name, extensions);
  }

  private void sign(String name, String extensions) throws IOException {
    openssl(
        "x509",
        "-req",
        "-in",
        name + ".csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-set_serial",
        Long.toString(System.nanoTime() & Long.MAX_VALUE),
        "-days",
        "2",
        "-out",
        name + ".pem",
        "-extfile",
        extensions);
  }

  /**
   * Runs {@code openssl} in the certificates' directory.
   *
   * @param args its arguments
   * @throws IOException if it cannot run
   * @throws IllegalStateException if it fails
   */
  public void openssl(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add("openssl");
    command.addAll(Arrays.asList(args));
    Process p;
    try {
      p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IllegalStateException(
          "NO openssl: the TLS tests need it (install the openssl package)", e);
    }
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException(command + " failed: " + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
