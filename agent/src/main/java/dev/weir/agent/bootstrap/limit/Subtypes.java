package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.CallDepth;

/**
 * Whether an object is an instance of a type named in a {@code Type+} pattern, for the code woven
 * into an implementation that such a type's subclasses inherit from a class that is not itself one
 * of them (docs/config-file.md, "Patterns"): a JDBC driver's {@code JDBC4PreparedStatement
 * implements PreparedStatement} inherits {@code executeUpdate()} from {@code
 * JDBC3PreparedStatement}, which is no {@code PreparedStatement}; that method is woven to charge a
 * call only when {@code this} is one.
 *
 * <p>Types are compared by name, as the pattern names them: a class is an instance of {@code
 * java.sql.PreparedStatement+} when it or one of its ancestors has that name, in whichever loader.
 * The names of each class's ancestors are computed once, by reflection over the loaded class
 * ({@link Class#getSuperclass()}, {@link Class#getInterfaces()}: nothing is loaded), and kept with
 * the class ({@link ClassValue}), so a discarded class loader takes them with it.
 *
 * <p>Thread-safe; never blocks.
 */
public final class Subtypes {
  private Subtypes() {}

  private static final ClassValue<String[]> ANCESTORS =
      new ClassValue<String[]>() {
        @Override
        protected String[] computeValue(Class<?> type) {
          return ancestorNames(type);
        }
      };

  /**
   * Whether {@code self}'s class is the type named {@code typeName} or descends from it.
   *
   * @param self the object, never null (the receiver of an instance method)
   * @param typeName the type's binary name, {@code java.sql.PreparedStatement}
   * @return true if it is an instance of that type
   */
  public static boolean isA(Object self, String typeName) {
    // the JDK's own code behind a ClassValue (its map, on a first look) is Weir's work: a config
    // limit on those methods charges nothing here
    int[] section = CallDepth.enterWeir();
    try {
      String[] names = ANCESTORS.get(self.getClass());
      for (String name : names) {
        if (name.equals(typeName)) {
          return true;
        }
      }
      return false;
    } finally {
      section[0]--;
    }
  }

  /** The names of the class and of every class and interface it descends from. */
  static String[] ancestorNames(Class<?> type) {
    String[] names = new String[8];
    int n = 0;
    Class<?>[] pending = new Class<?>[8];
    int p = 0;
    pending[p++] = type;
    while (p > 0) {
      Class<?> c = pending[--p];
      String name = c.getName();
      boolean seen = false;
      for (int i = 0; i < n && !seen; i++) {
        seen = names[i].equals(name);
      }
      if (seen) {
        continue;
      }
      if (n == names.length) {
        names = grow(names);
      }
      names[n++] = name;
      Class<?> superclass = c.getSuperclass();
      Class<?>[] interfaces = c.getInterfaces();
      while (p + 1 + interfaces.length > pending.length) {
        Class<?>[] more = new Class<?>[pending.length * 2];
        System.arraycopy(pending, 0, more, 0, p);
        pending = more;
      }
      if (superclass != null) {
        pending[p++] = superclass;
      }
      for (Class<?> i : interfaces) {
        pending[p++] = i;
      }
    }
    String[] exact = new String[n];
    System.arraycopy(names, 0, exact, 0, n);
    return exact;
  }

  private static String[] grow(String[] names) {
    String[] more = new String[names.length * 2];
    System.arraycopy(names, 0, more, 0, names.length);
    return more;
  }
}
