package dev.weir.agent.weave;

import java.io.IOException;
import java.io.InputStream;

/**
 * Defines the classes of one fixture package from their class files, through the transformer, as
 * the JVM would; everything else comes from the test's own loader.
 */
final class TransformingLoader extends ClassLoader {
  private final WeirTransformer transformer;
  private final String prefix;

  /**
   * A loader that weaves a package's fixtures.
   *
   * @param transformer the transformer every fixture class goes through
   * @param prefix the fixtures' package, with its trailing dot ({@code fixtures.several.})
   */
  TransformingLoader(WeirTransformer transformer, String prefix) {
    super(TransformingLoader.class.getClassLoader());
    this.transformer = transformer;
    this.prefix = prefix;
  }

  boolean isLoaded(String name) {
    return findLoadedClass(name) != null;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (!name.startsWith(prefix)) {
      return super.loadClass(name, resolve);
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> loaded = findLoadedClass(name);
      if (loaded != null) {
        return loaded;
      }
      try (InputStream in = getResourceAsStream(name.replace('.', '/') + ".class")) {
        byte[] original = in.readAllBytes();
        byte[] transformed =
            transformer.transform(this, name.replace('.', '/'), null, null, original);
        byte[] bytes = transformed == null ? original : transformed;
        return defineClass(name, bytes, 0, bytes.length);
      } catch (IOException e) {
        throw new ClassNotFoundException(name, e);
      }
    }
  }
}
