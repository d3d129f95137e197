package dev.weir.agent.config;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * The {@code backendTls} setting: the PEM files that make a {@code rediss://} backend's TLS its own
 * ({@code caCertificate}: the CAs that sign the server's certificate, trusted for this backend
 * alone; {@code certificate} and {@code privateKey}: the client certificate chain and its key),
 * read and checked when the config file is, so that a missing, unreadable or malformed file is a
 * config error. The JVM's own trust store and key store are never read or changed for what is given
 * here: without {@code caCertificate} the JVM's default trust applies to this backend, as it does
 * to the application. Keys: unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY}: RSA, EC, and Ed25519 on
 * JDKs that have it), PKCS#1 RSA ({@code BEGIN RSA PRIVATE KEY}) and SEC1 EC ({@code BEGIN EC
 * PRIVATE KEY}); an encrypted key is refused. JDK classes only. Immutable, thread-safe.
 */
public final class BackendTls {
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);

  /** The key store password of the in-memory key store the key goes into (never on disk). */
  private static final char[] IN_MEMORY = "weir".toCharArray();

  private final List<X509Certificate> authorities;
  private final List<X509Certificate> chain;
  private final PrivateKey key;

  /** The files' bytes, for {@link #equals}: a reload that changed a file makes a new connection. */
  private final List<byte[]> contents;

  private BackendTls(
      List<X509Certificate> authorities,
      List<X509Certificate> chain,
      PrivateKey key,
      List<byte[]> contents) {
    this.authorities = authorities;
    this.chain = chain;
    this.key = key;
    this.contents = contents;
  }

  /** One PEM file as read: its path for messages and its bytes. */
  static final class Pem {
    final File file;
    final byte[] bytes;

    private Pem(File file, byte[] bytes) {
      this.file = file;
      this.bytes = bytes;
    }

    /**
     * Reads a file.
     *
     * @param file the file
     * @return its content
     * @throws IllegalArgumentException saying why it cannot be read
     */
    static Pem read(File file) {
      try {
        return new Pem(file, Files.readAllBytes(file.toPath()));
      } catch (NoSuchFileException e) {
        throw new IllegalArgumentException("must name a PEM file, and " + file + " does not exist");
      } catch (IOException | SecurityException e) {
        throw new IllegalArgumentException(
            "must name a PEM file that can be read, and " + file + " cannot be: " + e);
      }
    }

    /** The blocks labelled {@code label}, base64-decoded. */
    List<byte[]> blocks(String label) {
      List<byte[]> found = new ArrayList<byte[]>();
      Matcher m = BLOCK.matcher(new String(bytes, StandardCharsets.ISO_8859_1));
      while (m.find()) {
        if (m.group(1).equals(label)) {
          found.add(base64(m.group(2)));
        }
      }
      return found;
    }

    /** The labels of the file's blocks, in order. */
    List<String> labels() {
      List<String> found = new ArrayList<String>();
      Matcher m = BLOCK.matcher(new String(bytes, StandardCharsets.ISO_8859_1));
      while (m.find()) {
        found.add(m.group(1));
      }
      return found;
    }

    private byte[] base64(String body) {
      if (body.contains("Proc-Type:")) { // 4,ENCRYPTED: OpenSSL's traditional encrypted format
        throw new IllegalArgumentException(
            "must be unencrypted, and "
                + file
                + " holds an encrypted key (decrypt it: openssl pkey -in KEY -out PLAIN)");
      }
      try {
        return Base64.getMimeDecoder().decode(body.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "must be a PEM file, and "
                + file
                + " has a block that is not base64: "
                + e.getMessage());
      }
    }
  }

  /**
   * The certificates of a PEM file ({@code -----BEGIN CERTIFICATE-----} blocks).
   *
   * @param pem the file
   * @return its certificates, at least one, in file order
   * @throws IllegalArgumentException if it holds none, or one that is not valid
   */
  static List<X509Certificate> certificates(Pem pem) {
    List<byte[]> blocks = pem.blocks("CERTIFICATE");
    if (blocks.isEmpty()) {
      throw new IllegalArgumentException(
          "must be a PEM file of certificates (-----BEGIN CERTIFICATE-----), and "
              + pem.file
              + " holds "
              + (pem.labels().isEmpty() ? "none" : "only " + pem.labels()));
    }
    List<X509Certificate> certificates = new ArrayList<X509Certificate>();
    try {
      CertificateFactory x509 = CertificateFactory.getInstance("X.509");
      for (byte[] der : blocks) {
        certificates.add((X509Certificate) x509.generateCertificate(new ByteArrayInputStream(der)));
      }
    } catch (CertificateException e) {
      throw new IllegalArgumentException(
          "must hold valid certificates, and " + pem.file + " does not: " + e.getMessage());
    }
    return Collections.unmodifiableList(certificates);
  }

  /**
   * The private key of a PEM file: PKCS#8, PKCS#1 (RSA) or SEC1 (EC), unencrypted.
   *
   * @param pem the file
   * @return the key
   * @throws IllegalArgumentException if it holds no key Weir can read (an encrypted one included)
   */
  static PrivateKey privateKey(Pem pem) {
    List<String> labels = pem.labels();
    if (labels.contains("ENCRYPTED PRIVATE KEY")) {
      throw new IllegalArgumentException(
          "must be unencrypted, and "
              + pem.file
              + " holds an encrypted key (decrypt it: openssl pkey -in KEY -out PLAIN)");
    }
    byte[] pkcs8;
    List<byte[]> blocks;
    if (!(blocks = pem.blocks("PRIVATE KEY")).isEmpty()) {
      pkcs8 = blocks.get(0);
    } else if (!(blocks = pem.blocks("RSA PRIVATE KEY")).isEmpty()) {
      pkcs8 = Der.pkcs8(Der.RSA_ALGORITHM, blocks.get(0));
    } else if (!(blocks = pem.blocks("EC PRIVATE KEY")).isEmpty()) {
      pkcs8 = Der.pkcs8(Der.ecAlgorithm(blocks.get(0), pem.file), blocks.get(0));
    } else {
      throw new IllegalArgumentException(
          "must be a PEM file of a private key (-----BEGIN PRIVATE KEY-----, RSA PRIVATE KEY or"
              + " EC PRIVATE KEY), and "
              + pem.file
              + " holds "
              + (labels.isEmpty() ? "none" : "only " + labels));
    }
    for (String algorithm : new String[] {"RSA", "EC", "EdDSA", "RSASSA-PSS", "DSA"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
      } catch (GeneralSecurityException | RuntimeException notThisOne) {
        // the next algorithm
      }
    }
    throw new IllegalArgumentException(
        "must hold an RSA, EC or Ed25519 key this JVM can read, and " + pem.file + " does not");
  }

  /**
   * The setting.
   *
   * @param authorities {@code caCertificate}'s certificates; null to trust as the JVM does
   * @param chain {@code certificate}'s chain, the client's own first; null for no client
   *     certificate
   * @param key {@code privateKey}'s key; null exactly when {@code chain} is
   * @param files the files read, for equality
   * @return the setting
   * @throws IllegalArgumentException if the key is not the first certificate's
   */
  static BackendTls of(
      List<X509Certificate> authorities,
      List<X509Certificate> chain,
      PrivateKey key,
      List<Pem> files) {
    if (key != null && !matches(key, chain.get(0))) {
      throw new IllegalArgumentException(
          "privateKey must be the key of certificate's first certificate ("
              + chain.get(0).getSubjectX500Principal().getName()
              + "), and it is not");
    }
    List<byte[]> contents = new ArrayList<byte[]>();
    for (Pem pem : files) {
      contents.add(pem.bytes);
    }
    return new BackendTls(authorities, chain, key, contents);
  }

  /** Whether a signature by {@code key} verifies with the certificate's public key. */
  private static boolean matches(PrivateKey key, X509Certificate certificate) {
    String algorithm;
    switch (key.getAlgorithm()) {
      case "RSA":
        algorithm = "SHA256withRSA";
        break;
      case "EC":
        algorithm = "SHA256withECDSA";
        break;
      case "DSA":
        algorithm = "SHA256withDSA";
        break;
      case "EdDSA":
      case "Ed25519":
      case "Ed448":
        algorithm = key.getAlgorithm();
        break;
      default:
        return true; // RSASSA-PSS and others: the handshake will tell
    }
    try {
      byte[] probe = "weir".getBytes(StandardCharsets.US_ASCII);
      Signature sign = Signature.getInstance(algorithm);
      sign.initSign(key);
      sign.update(probe);
      byte[] signature = sign.sign();
      Signature verify = Signature.getInstance(algorithm);
      verify.initVerify(certificate.getPublicKey());
      verify.update(probe);
      return verify.verify(signature);
    } catch (GeneralSecurityException | RuntimeException e) {
      return false;
    }
  }

  /**
   * The TLS context of the backend's connections: a trust manager of {@code caCertificate} alone
   * (or the JVM's default one without it) and a key manager of the client certificate (or none).
   * Builds a new context each call.
   *
   * @return the context
   * @throws GeneralSecurityException if the JVM cannot make one of them
   */
  public SSLContext sslContext() throws GeneralSecurityException {
    KeyManager[] keyManagers = null;
    if (key != null) {
      KeyStore keys = emptyStore();
      keys.setKeyEntry("weir-client", key, IN_MEMORY, chain.toArray(new Certificate[0]));
      KeyManagerFactory factory =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      factory.init(keys, IN_MEMORY);
      keyManagers = factory.getKeyManagers();
    }
    TrustManager[] trustManagers = null;
    if (authorities != null) {
      KeyStore trusted = emptyStore();
      for (int i = 0; i < authorities.size(); i++) {
        trusted.setCertificateEntry("weir-ca-" + i, authorities.get(i));
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trusted);
      trustManagers = factory.getTrustManagers();
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers, trustManagers, null);
    return context;
  }

  private static KeyStore emptyStore() throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    try {
      store.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot make an in-memory key store", e);
    }
    return store;
  }

  /**
   * Whether the backend's own CAs are given.
   *
   * @return true if {@code caCertificate} was given
   */
  public boolean trustsOwnAuthorities() {
    return authorities != null;
  }

  /** Equal settings: files of the same content. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof BackendTls)) {
      return false;
    }
    List<byte[]> other = ((BackendTls) o).contents;
    if (other.size() != contents.size()
        || (authorities == null) != (((BackendTls) o).authorities == null)
        || (key == null) != (((BackendTls) o).key == null)) {
      return false;
    }
    for (int i = 0; i < contents.size(); i++) {
      if (!Arrays.equals(contents.get(i), other.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (byte[] c : contents) {
      h = h * 31 + Arrays.hashCode(c);
    }
    return h;
  }

  @Override
  public String toString() {
    return "backendTls"
        + (authorities != null ? " caCertificate (" + authorities.size() + ")" : "")
        + (key != null ? " client certificate " + chain.get(0).getSubjectX500Principal() : "");
  }

  /** The little DER it takes to give a PKCS#1 or SEC1 key the PKCS#8 wrapping the JDK reads. */
  static final class Der {
    /** AlgorithmIdentifier { rsaEncryption, NULL }. */
    static final byte[] RSA_ALGORITHM = {
      0x30,
      0x0d,
      0x06,
      0x09,
      0x2a,
      (byte) 0x86,
      0x48,
      (byte) 0x86,
      (byte) 0xf7,
      0x0d,
      0x01,
      0x01,
      0x01,
      0x05,
      0x00
    };

    /** OID id-ecPublicKey, 1.2.840.10045.2.1, encoded. */
    private static final byte[] EC_PUBLIC_KEY = {
      0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01
    };

    private Der() {}

    /** PrivateKeyInfo { 0, algorithm, OCTET STRING key }. */
    static byte[] pkcs8(byte[] algorithm, byte[] key) {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      body.write(0x02);
      body.write(0x01);
      body.write(0x00);
      body.write(algorithm, 0, algorithm.length);
      tagged(body, 0x04, key);
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      tagged(all, 0x30, body.toByteArray());
      return all.toByteArray();
    }

    /**
     * AlgorithmIdentifier { id-ecPublicKey, the curve } of a SEC1 ECPrivateKey, whose {@code [0]}
     * parameters name the curve.
     */
    static byte[] ecAlgorithm(byte[] sec1, File file) {
      try {
        int[] at = {0};
        expect(sec1, at, 0x30);
        int end = length(sec1, at) + at[0];
        while (at[0] < end) {
          int tag = sec1[at[0]++] & 0xff;
          int length = length(sec1, at);
          if (tag == 0xa0) { // [0] EXPLICIT parameters: the named curve's OID
            ByteArrayOutputStream algorithm = new ByteArrayOutputStream();
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            body.write(EC_PUBLIC_KEY, 0, EC_PUBLIC_KEY.length);
            body.write(sec1, at[0], length);
            tagged(algorithm, 0x30, body.toByteArray());
            return algorithm.toByteArray();
          }
          at[0] += length;
        }
      } catch (RuntimeException malformed) {
        // reported below
      }
      throw new IllegalArgumentException(
          "must hold an EC key that names its curve, and "
              + file
              + " does not (convert it: openssl pkcs8 -topk8 -nocrypt -in KEY -out PKCS8)");
    }

    private static void expect(byte[] der, int[] at, int tag) {
      if ((der[at[0]++] & 0xff) != tag) {
        throw new IllegalArgumentException("unexpected DER tag");
      }
    }

    private static int length(byte[] der, int[] at) {
      int first = der[at[0]++] & 0xff;
      if (first < 0x80) {
        return first;
      }
      int length = 0;
      for (int i = 0; i < (first & 0x7f); i++) {
        length = (length << 8) | (der[at[0]++] & 0xff);
      }
      if (length < 0 || at[0] + length > der.length) {
        throw new IllegalArgumentException("DER length out of range");
      }
      return length;
    }

    private static void tagged(ByteArrayOutputStream out, int tag, byte[] content) {
      out.write(tag);
      int n = content.length;
      if (n < 0x80) {
        out.write(n);
      } else if (n < 0x100) {
        out.write(0x81);
        out.write(n);
      } else if (n < 0x10000) {
        out.write(0x82);
        out.write(n >> 8);
        out.write(n);
      } else {
        out.write(0x83);
        out.write(n >> 16);
        out.write(n >> 8);
        out.write(n);
      }
      out.write(content, 0, content.length);
    }
  }
}
