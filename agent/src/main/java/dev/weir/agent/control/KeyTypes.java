package dev.weir.agent.control;

import dev.weir.agent.config.ConfigLimit;
import dev.weir.agent.config.MethodPattern;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * Whether a key parameter's type gives keys that mean something. A per-key limit keys by {@code
 * String.valueOf(argument)}; a type that keeps {@link Object#toString()} gives {@code
 * ClassName@hash}, a new key for every object, so every call gets its own full bucket and the limit
 * does nothing. That is decided from class files, read through the class's own loader (as {@code
 * Type+} patterns read supertypes), without loading any class: a concrete class whose chain of
 * superclasses below {@code Object} declares no {@code toString()} is refused. An interface, an
 * abstract class, {@code Object} itself, or a class whose file cannot be read may hold anything:
 * its keys are looked at when they arrive instead (a key that looks like {@code ClassName@hash} is
 * warned once). Stateless and thread-safe.
 */
public final class KeyTypes {
  /** What the weaving can say of a key type. */
  public enum Verdict {
    /** Its values print as something other than their identity. */
    FINE,
    /** A concrete class that keeps {@code Object}'s {@code toString()}: refused. */
    IDENTITY,
    /** Cannot be told from its type: the keys are looked at when they arrive. */
    AT_RUN_TIME
  }

  private static final String TO_STRING_DESCRIPTOR = "()Ljava/lang/String;";

  /** Final JDK types that print their value, as most keys are. */
  private static final Set<String> PRINT_THEMSELVES =
      new HashSet<String>(
          Arrays.asList(
              "java/lang/String",
              "java/lang/Integer",
              "java/lang/Long",
              "java/lang/Short",
              "java/lang/Byte",
              "java/lang/Character",
              "java/lang/Boolean",
              "java/lang/Double",
              "java/lang/Float",
              "java/util/UUID"));

  private KeyTypes() {}

  /**
   * Judges a key parameter's declared type.
   *
   * @param keyType the parameter's type
   * @param loader the loader of the class that declares the method, null for the bootstrap loader
   * @return the verdict
   */
  public static Verdict judge(Type keyType, ClassLoader loader) {
    if (keyType.getSort() == Type.ARRAY) { // by content: as its elements print
      keyType = keyType.getElementType();
    }
    if (keyType.getSort() != Type.OBJECT) {
      return Verdict.FINE; // primitives by value
    }
    String name = keyType.getInternalName();
    if (name.equals("java/lang/Object")) {
      return Verdict.AT_RUN_TIME;
    }
    if (PRINT_THEMSELVES.contains(name)) {
      return Verdict.FINE; // the usual keys: no class file to read
    }
    boolean declared = true;
    for (int depth = 0; depth < 64 && name != null; depth++) {
      if (name.equals("java/lang/Object")) {
        return Verdict.IDENTITY;
      }
      byte[] classFile = ClassFiles.read(loader, name);
      if (classFile == null) {
        return Verdict.AT_RUN_TIME; // cannot be told
      }
      ClassReader reader = OpenedClassReader.of(classFile);
      if (declared && (reader.getAccess() & (Opcodes.ACC_INTERFACE | Opcodes.ACC_ABSTRACT)) != 0) {
        return Verdict.AT_RUN_TIME; // its implementations may print themselves
      }
      if (declaresToString(reader)) {
        return Verdict.FINE;
      }
      name = reader.getSuperName();
      declared = false;
    }
    return Verdict.AT_RUN_TIME;
  }

  private static boolean declaresToString(ClassReader reader) {
    final boolean[] found = {false};
    reader.accept(
        new ClassVisitor(OpenedClassReader.ASM_API) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String descriptor, String signature, String[] ex) {
            if (name.equals("toString")
                && descriptor.equals(TO_STRING_DESCRIPTOR)
                && (access & Opcodes.ACC_STATIC) == 0) {
              found[0] = true;
            }
            return null;
          }
        },
        ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return found[0];
  }

  /**
   * Why a key of this type would make the limit do nothing, for messages.
   *
   * @param keyType a type judged {@link Verdict#IDENTITY}
   * @return the explanation and what to do instead
   */
  public static String identityProblem(Type keyType) {
    return "a "
        + keyType.getClassName()
        + (keyType.getSort() == Type.ARRAY
            ? " (keyed by content, as its elements print), and "
                + keyType.getElementType().getClassName()
            : "")
        + ", whose toString() is Object's (ClassName@hash, a new key for every object), so every"
        + " call would get its own bucket and the limit would do nothing; key on a value that names"
        + " what to limit: a String or number id, or a type whose toString() says it";
  }

  /**
   * The start-up errors of config limits whose key names a parameter of a type that keeps {@code
   * Object}'s {@code toString()}, where a pattern's parameter types say which type that is and the
   * given loader can read its class file (the application's classes on the class path).
   *
   * @param limits the config file's limits
   * @param loader the loader to read class files through (the system class loader at start-up)
   * @return one line per problem, each starting with the entry's {@code file:line}
   */
  public static List<String> configErrors(List<ConfigLimit> limits, ClassLoader loader) {
    List<String> errors = new ArrayList<String>();
    for (ConfigLimit limit : limits) {
      int index = limit.keyIndex();
      if (index < 0) {
        continue;
      }
      for (MethodPattern pattern : limit.patterns()) {
        List<String> parameters = pattern.parameterTypes();
        if (parameters == null || index >= parameters.size()) {
          continue;
        }
        Type type = sourceType(parameters.get(index));
        if (type != null && judge(type, loader) == Verdict.IDENTITY) {
          errors.add(
              limit.origin()
                  + ": '"
                  + limit.name()
                  + "' has key: "
                  + index
                  + ", and parameter "
                  + index
                  + " of "
                  + pattern
                  + " is "
                  + identityProblem(type));
        }
      }
    }
    return errors;
  }

  /**
   * A reference type, or an array of one, from a Java source name ({@code com.acme.Order}, {@code
   * com.acme.Order[]}); null for a primitive or an array of primitives.
   */
  private static Type sourceType(String name) {
    String dimensions = "";
    while (name.endsWith("[]")) {
      name = name.substring(0, name.length() - 2);
      dimensions += "[";
    }
    if (name.indexOf('.') < 0 && Character.isLowerCase(name.charAt(0))) {
      return null; // a primitive
    }
    return Type.getType(dimensions + "L" + name.replace('.', '/') + ";");
  }
}
