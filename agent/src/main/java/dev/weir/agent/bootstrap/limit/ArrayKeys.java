package dev.weir.agent.bootstrap.limit;

import java.util.Arrays;

/**
 * The key of an array argument, by content (docs/annotations.md, "Keys": arrays by content), as
 * {@link Arrays#toString} and {@link Arrays#deepToString} write it: two arrays of equal content are
 * one key, in every JVM (cluster scope keys by it too). Stateless and thread-safe.
 */
final class ArrayKeys {
  private ArrayKeys() {}

  /**
   * The key of an array.
   *
   * @param array an array, or null
   * @return {@code "null"} for null; else the array's content in words
   */
  static String of(Object array) {
    if (array == null) {
      return "null";
    }
    if (array instanceof Object[]) {
      return Arrays.deepToString((Object[]) array);
    }
    if (array instanceof int[]) {
      return Arrays.toString((int[]) array);
    }
    if (array instanceof long[]) {
      return Arrays.toString((long[]) array);
    }
    if (array instanceof byte[]) {
      return Arrays.toString((byte[]) array);
    }
    if (array instanceof char[]) {
      return Arrays.toString((char[]) array);
    }
    if (array instanceof short[]) {
      return Arrays.toString((short[]) array);
    }
    if (array instanceof boolean[]) {
      return Arrays.toString((boolean[]) array);
    }
    if (array instanceof float[]) {
      return Arrays.toString((float[]) array);
    }
    if (array instanceof double[]) {
      return Arrays.toString((double[]) array);
    }
    return String.valueOf(array); // no array: as a key of any other type
  }
}
