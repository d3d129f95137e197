package dev.weir.agent.control;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a class file as a class loader serves it, without loading the class: the agent decides by
 * class files, never by loading application classes. Used by the config checks ({@link KeyTypes})
 * and by the weaving. Stateless and thread-safe.
 */
public final class ClassFiles {
  private ClassFiles() {}

  /**
   * Reads a class file as its loader serves it.
   *
   * @param loader the loader; null for the bootstrap loader
   * @param internalName the class ({@code java/lang/String})
   * @return the bytes, or null if the loader does not serve them
   */
  public static byte[] read(ClassLoader loader, String internalName) {
    String resource = internalName + ".class";
    InputStream in =
        loader == null
            ? ClassLoader.getSystemResourceAsStream(resource)
            : loader.getResourceAsStream(resource);
    if (in == null) {
      return null;
    }
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) > 0; ) {
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } catch (IOException e) {
      return null;
    } finally {
      try {
        in.close();
      } catch (IOException ignored) {
        // nothing to do
      }
    }
  }
}
