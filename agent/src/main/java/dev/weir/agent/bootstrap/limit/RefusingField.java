package dev.weir.agent.bootstrap.limit;

import java.lang.reflect.Field;

/**
 * Sets the {@code refusing} field of an application's copy of {@code RateLimitedException}, the
 * names of every limit that refused a call, where that copy has it: the API's constructor stays the
 * one stable seam woven code calls, and an older copy without the field is left as it is.
 *
 * <p>Thread-safe: the field of each exception class is looked up once ({@link ClassValue}).
 */
final class RefusingField {
  private static final ClassValue<Field> FIELDS =
      new ClassValue<Field>() {
        @Override
        protected Field computeValue(Class<?> type) {
          for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals("dev.weir.RateLimitedException")) {
              try {
                Field f = c.getDeclaredField("refusing");
                f.setAccessible(true);
                return f.getType() == String[].class ? f : null;
              } catch (NoSuchFieldException | RuntimeException e) {
                return null; // an older API copy, or one the JVM will not open
              }
            }
          }
          return null;
        }
      };

  private RefusingField() {}

  /**
   * Sets the names on the exception, if its class can take them.
   *
   * @param exception the exception
   * @param names the names, the longest wait's first
   */
  static void set(RuntimeException exception, String[] names) {
    Field field = FIELDS.get(exception.getClass());
    if (field != null) {
      try {
        field.set(exception, names);
      } catch (IllegalAccessException | RuntimeException e) {
        // the names stay those of the constructor: the longest wait's limit
      }
    }
  }
}
