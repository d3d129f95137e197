package dev.weir.agent.bootstrap;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The agent's own class loader: defines the agent tier (weaving, config, relocated Byte Buddy) from
 * the {@code inst/**.classdata} entries of the agent jar.
 *
 * <p>Those entries are not {@code .class} files, so no other class loader (the system loader, to
 * which {@code -javaagent} adds the jar, or the bootstrap loader, to which the agent appends it)
 * ever defines them: the application cannot see the agent's libraries, and the agent's libraries
 * cannot clash with the application's. Resources are served the same way: {@code X.class} is read
 * from {@code inst/X.classdata}, so the weaver can read the warm-up class it weaves. Parent: the
 * platform loader (bootstrap on Java 8), through which the bootstrap tier is visible. Parallel
 * capable.
 */
final class AgentClassLoader extends ClassLoader {
  private static final String PREFIX = "inst/";

  static {
    registerAsParallelCapable();
  }

  private final JarFile jar;
  private final String jarUrl;
  private final ProtectionDomain protectionDomain;

  AgentClassLoader(File agentJar, JarFile jar, ClassLoader parent) throws MalformedURLException {
    super(parent);
    this.jar = jar;
    URL url = agentJar.toURI().toURL();
    this.jarUrl = url.toExternalForm();
    this.protectionDomain =
        new ProtectionDomain(new CodeSource(url, (Certificate[]) null), null, this, null);
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    byte[] bytes = read(PREFIX + name.replace('.', '/') + ".classdata");
    if (bytes == null) {
      throw new ClassNotFoundException(name);
    }
    int dot = name.lastIndexOf('.');
    if (dot > 0) {
      definePackageOnce(name.substring(0, dot));
    }
    return defineClass(name, bytes, 0, bytes.length, protectionDomain);
  }

  @SuppressWarnings("deprecation") // getPackage: the Java 8 API
  private void definePackageOnce(String packageName) {
    if (getPackage(packageName) == null) {
      try {
        definePackage(packageName, null, null, null, null, null, null, null);
      } catch (IllegalArgumentException definedConcurrently) {
        // another thread defined it first
      }
    }
  }

  @Override
  protected URL findResource(String name) {
    String entry = entryName(name);
    if (jar.getJarEntry(entry) == null) {
      return null;
    }
    try {
      return new URL("jar:" + jarUrl + "!/" + entry);
    } catch (MalformedURLException e) {
      return null;
    }
  }

  @Override
  protected Enumeration<URL> findResources(String name) {
    URL url = findResource(name);
    return url == null
        ? Collections.<URL>emptyEnumeration()
        : Collections.enumeration(Collections.singletonList(url));
  }

  @Override
  public InputStream getResourceAsStream(String name) {
    JarEntry entry = jar.getJarEntry(entryName(name));
    if (entry == null) {
      return super.getResourceAsStream(name);
    }
    try {
      return jar.getInputStream(entry);
    } catch (IOException e) {
      return null;
    }
  }

  private static String entryName(String resource) {
    return resource.endsWith(".class")
        ? PREFIX + resource.substring(0, resource.length() - ".class".length()) + ".classdata"
        : PREFIX + resource;
  }

  private byte[] read(String entryName) {
    JarEntry entry = jar.getJarEntry(entryName);
    if (entry == null) {
      return null;
    }
    try (InputStream in = jar.getInputStream(entry)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) > 0; ) {
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } catch (IOException e) {
      return null;
    }
  }
}
