package dev.weir.agent.weave;

import dev.weir.agent.config.MethodPattern;
import dev.weir.agent.control.ClassFiles;
import dev.weir.agent.weave.ClassModel.MethodModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * The implementations a class inherits, for a {@code Type+} pattern: the methods matching the
 * pattern that the class does not declare and whose code is in an ancestor (docs/config-file.md,
 * "Patterns": {@code Type+#m} limits every call of {@code m} on an instance of {@code Type},
 * wherever the code that runs is declared). A JDBC driver's {@code JDBC4PreparedStatement
 * implements PreparedStatement} inherits {@code executeUpdate()} from {@code
 * JDBC3PreparedStatement}; that method must be limited for calls on the driver's statements.
 *
 * <p>The ancestors are read from their class files through the class's loader, as the JVM resolves
 * them (no class is loaded), the methods without their code. The superclass chain decides, as
 * method selection does: the first class that declares a method supplies it (an abstract one
 * supplies none); a method no class declares comes from a default method of an interface. Methods
 * of {@code java.lang.Object} are never looked for: a {@code Type+} pattern names the type's own
 * methods.
 *
 * <p>One instance per class woven; confined to the weaving thread.
 */
final class Ancestry {
  private static final String OBJECT = "java/lang/Object";

  private final ClassLoader loader;
  private final Map<String, ClassModel> read = new HashMap<String, ClassModel>();

  /** The ancestors whose class file the loader does not serve. */
  private final Set<String> unreadable = new LinkedHashSet<String>();

  /**
   * Starts reading ancestors through a loader.
   *
   * @param loader the loader of the class whose ancestors are read; null for the bootstrap loader
   */
  Ancestry(ClassLoader loader) {
    this.loader = loader;
  }

  /** An implementation a class inherits. */
  static final class Inherited {
    /** The ancestor that declares it. */
    final ClassModel declaredBy;

    /** The method, as the ancestor declares it. */
    final MethodModel method;

    /** Whether it is an interface's default method. */
    final boolean fromInterface;

    Inherited(ClassModel declaredBy, MethodModel method, boolean fromInterface) {
      this.declaredBy = declaredBy;
      this.method = method;
      this.fromInterface = fromInterface;
    }
  }

  /**
   * The implementations of methods matching {@code pattern} that {@code type} inherits.
   *
   * @param type the class, read from its class file
   * @param pattern a {@code Type+} pattern
   * @return each inherited implementation once, in the order found
   */
  List<Inherited> inherited(ClassModel type, MethodPattern pattern) {
    List<Inherited> found = new ArrayList<Inherited>();
    Set<String> supplied = new LinkedHashSet<String>(); // keys a class declares or supplies
    for (MethodModel own : type.methods) {
      supplied.add(own.key());
    }
    List<ClassModel> classes = new ArrayList<ClassModel>();
    for (String s = type.superName; s != null && !s.equals(OBJECT); ) {
      ClassModel ancestor = model(s);
      if (ancestor == null) {
        break;
      }
      classes.add(ancestor);
      for (MethodModel method : ancestor.methods) {
        if (inheritable(method)
            && pattern.matchesMethod(method.name, method.parameterNames())
            && supplied.add(method.key())
            && !method.is(Opcodes.ACC_ABSTRACT)) {
          found.add(new Inherited(ancestor, method, false));
        }
      }
      s = ancestor.superName;
    }
    // a method no class supplies comes from an interface's default method
    Set<String> interfaces = new LinkedHashSet<String>();
    collectInterfaces(type, interfaces);
    for (ClassModel c : classes) {
      collectInterfaces(c, interfaces);
    }
    for (String name : interfaces) {
      ClassModel i = model(name);
      if (i == null) {
        continue;
      }
      for (MethodModel method : i.methods) {
        if (inheritable(method)
            && !method.is(Opcodes.ACC_ABSTRACT)
            && !supplied.contains(method.key())
            && pattern.matchesMethod(method.name, method.parameterNames())) {
          found.add(new Inherited(i, method, true));
        }
      }
    }
    return found;
  }

  /**
   * The ancestors whose class files could not be read so far: what they supply is unknown.
   *
   * @return their internal names
   */
  Set<String> unreadable() {
    return unreadable;
  }

  /** An instance method a subclass inherits: not a constructor, static, private or bridge. */
  private static boolean inheritable(MethodModel method) {
    return !method.name.startsWith("<")
        && !method.is(Opcodes.ACC_STATIC)
        && !method.is(Opcodes.ACC_PRIVATE)
        && !method.is(Opcodes.ACC_BRIDGE)
        && !method.is(Opcodes.ACC_SYNTHETIC);
  }

  private void collectInterfaces(ClassModel type, Set<String> into) {
    for (String name : type.interfaces) {
      if (into.add(name)) {
        ClassModel i = model(name);
        if (i != null) {
          collectInterfaces(i, into);
        }
      }
    }
  }

  private ClassModel model(String internalName) {
    if (read.containsKey(internalName)) {
      return read.get(internalName);
    }
    ClassModel model = null;
    byte[] classFile = ClassFiles.read(loader, internalName);
    if (classFile != null) {
      try {
        model = ClassModel.read(OpenedClassReader.of(classFile));
      } catch (RuntimeException malformed) {
        model = null;
      }
    }
    if (model == null) {
      unreadable.add(internalName);
    }
    read.put(internalName, model);
    return model;
  }
}
