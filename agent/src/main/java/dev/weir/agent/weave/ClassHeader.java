package dev.weir.agent.weave;

import java.nio.charset.StandardCharsets;

/**
 * Reads a class file's direct supertypes (superclass and interfaces) from its constant pool,
 * without parsing the rest: enough for the transformer to tell, in microseconds, whether a class
 * being loaded is a subtype of a {@code Type+} pattern's type.
 */
final class ClassHeader {
  private ClassHeader() {}

  /**
   * The internal names of the class's superclass and interfaces.
   *
   * @param classFile the class file
   * @return the names ({@code java/lang/Object} first for most classes); empty if the file cannot
   *     be read
   */
  static String[] supertypes(byte[] classFile) {
    try {
      int count = u2(classFile, 8);
      int[] offsets = new int[count];
      int p = 10;
      for (int i = 1; i < count; i++) {
        offsets[i] = p;
        int tag = classFile[p] & 0xff;
        switch (tag) {
          case 1: // Utf8
            p += 3 + u2(classFile, p + 1);
            break;
          case 5: // Long
          case 6: // Double
            p += 9;
            i++;
            break;
          case 3: // Integer
          case 4: // Float
          case 9: // Fieldref
          case 10: // Methodref
          case 11: // InterfaceMethodref
          case 12: // NameAndType
          case 17: // Dynamic
          case 18: // InvokeDynamic
            p += 5;
            break;
          case 15: // MethodHandle
            p += 4;
            break;
          case 7: // Class
          case 8: // String
          case 16: // MethodType
          case 19: // Module
          case 20: // Package
            p += 3;
            break;
          default:
            return new String[0];
        }
      }
      int superIndex = u2(classFile, p + 4);
      int interfaces = u2(classFile, p + 6);
      String[] names = new String[(superIndex == 0 ? 0 : 1) + interfaces];
      int n = 0;
      if (superIndex != 0) {
        names[n++] = className(classFile, offsets, superIndex);
      }
      for (int i = 0; i < interfaces; i++) {
        names[n++] = className(classFile, offsets, u2(classFile, p + 8 + 2 * i));
      }
      return names;
    } catch (RuntimeException malformed) {
      return new String[0];
    }
  }

  private static String className(byte[] b, int[] offsets, int classIndex) {
    int utf8 = offsets[u2(b, offsets[classIndex] + 1)];
    return new String(b, utf8 + 3, u2(b, utf8 + 1), StandardCharsets.UTF_8);
  }

  private static int u2(byte[] b, int at) {
    return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
  }
}
