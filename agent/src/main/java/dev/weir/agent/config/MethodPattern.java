package dev.weir.agent.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A method pattern of the config file: {@code pkg.Class#method}, with {@code *} wildcards in the
 * package, class and method names ({@code *} matches within one name, never across a {@code .}),
 * {@code Type+} for the type and every subtype, optional parameter types ({@code
 * #executeUpdate(java.lang.String)}), and binary names of nested classes ({@code Outer$Inner}).
 * Immutable.
 */
public final class MethodPattern {
  private static final Pattern TYPE =
      Pattern.compile("[A-Za-z_$*][A-Za-z0-9_$*]*(\\.[A-Za-z_$*][A-Za-z0-9_$*]*)*");
  private static final Pattern METHOD = Pattern.compile("[A-Za-z_$*][A-Za-z0-9_$*]*|<init>");
  private static final Pattern PARAMETER =
      Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*(\\[\\])*");

  private final String text;
  private final String typeName;
  private final boolean subtypes;

  /** The type part as a regular expression; null for a type part without {@code *}. */
  private final Pattern typeRegex;

  private final String typePrefix;

  /** The method part as a regular expression; null for a method part without {@code *}. */
  private final Pattern methodRegex;

  private final String methodName;
  private final boolean namesInitializer;
  private final List<String> parameterTypes;

  private MethodPattern(
      String text, String typeName, boolean subtypes, String method, List<String> parameters) {
    this.text = text;
    this.typeName = typeName;
    this.subtypes = subtypes;
    // a name without * is compared as it is: a file of ten thousand patterns compiles no regex
    int star = typeName.indexOf('*');
    this.typeRegex = star < 0 ? null : glob(typeName);
    this.typePrefix = star < 0 ? typeName : typeName.substring(0, star);
    this.methodRegex = method.indexOf('*') < 0 ? null : glob(method);
    this.methodName = method;
    this.namesInitializer = method.startsWith("<");
    this.parameterTypes = parameters;
  }

  /**
   * Parses a pattern.
   *
   * @param text for example {@code com.example.Sink+#write*}
   * @return the pattern
   * @throws IllegalArgumentException if the text is not a pattern; the message is the rule, as in
   *     {@code must be a method pattern like com.example.Type#method}
   */
  public static MethodPattern parse(String text) {
    String rule = "must be a method pattern like com.example.Type#method";
    int hash = text.indexOf('#');
    if (hash <= 0 || hash != text.lastIndexOf('#')) {
      throw new IllegalArgumentException(rule);
    }
    String type = text.substring(0, hash).trim();
    String method = text.substring(hash + 1).trim();
    boolean subtypes = type.endsWith("+");
    if (subtypes) {
      type = type.substring(0, type.length() - 1);
    }
    List<String> parameters = null;
    int open = method.indexOf('(');
    if (open >= 0) {
      if (!method.endsWith(")")) {
        throw new IllegalArgumentException(rule + " (parameter types in parentheses)");
      }
      String list = method.substring(open + 1, method.length() - 1).trim();
      method = method.substring(0, open).trim();
      parameters = new ArrayList<String>();
      if (!list.isEmpty()) {
        for (String parameter : list.split(",")) {
          String p = parameter.trim();
          if (!PARAMETER.matcher(p).matches()) {
            throw new IllegalArgumentException(
                rule + " (parameter types are names like int or java.lang.String)");
          }
          parameters.add(p);
        }
      }
      parameters = Collections.unmodifiableList(parameters);
    }
    if (!TYPE.matcher(type).matches() || !METHOD.matcher(method).matches()) {
      throw new IllegalArgumentException(rule);
    }
    if (subtypes && type.indexOf('*') >= 0) {
      throw new IllegalArgumentException(rule + " (a Type+ pattern names one type, no wildcards)");
    }
    return new MethodPattern(text, type, subtypes, method, parameters);
  }

  private static Pattern glob(String text) {
    StringBuilder regex = new StringBuilder();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '*') {
        regex.append(Pattern.quote(text.substring(start, i))).append("[^.]*");
        start = i + 1;
      }
    }
    return Pattern.compile(regex.append(Pattern.quote(text.substring(start))).toString());
  }

  /**
   * Whether a type's binary name ({@code com.acme.Outer$Inner}) is the pattern's type part. For a
   * {@code Type+} pattern, this is the named type only; its subtypes are found by the weaver.
   *
   * @param binaryName the type's binary name
   * @return true if it matches
   */
  public boolean matchesTypeName(String binaryName) {
    // the literal part first: most classes of an application fail it at the first characters
    return binaryName.startsWith(typePrefix)
        && (typePrefix.length() == typeName.length()
            ? binaryName.length() == typeName.length()
            : typeRegex.matcher(binaryName).matches());
  }

  /**
   * Whether a method matches the pattern's method part.
   *
   * @param name the method's name ({@code <init>} for constructors)
   * @param parameterTypeNames its parameter types as Java source names ({@code int}, {@code
   *     java.lang.String[]})
   * @return true if it matches
   */
  public boolean matchesMethod(String name, List<String> parameterTypeNames) {
    if (name.startsWith("<") && !namesInitializer) {
      return false; // a wildcard means methods: constructors only when named, as #<init>
    }
    return (methodRegex == null ? methodName.equals(name) : methodRegex.matcher(name).matches())
        && (parameterTypes == null || parameterTypes.equals(parameterTypeNames));
  }

  /**
   * The type part, without {@code +}.
   *
   * @return the type name or name pattern
   */
  public String typeName() {
    return typeName;
  }

  /**
   * The method part, without parameter types.
   *
   * @return the method name or name pattern ({@code execute*}, {@code <init>})
   */
  public String methodName() {
    return methodName;
  }

  /**
   * The parameter types the pattern names, as Java source names ({@code int}, {@code
   * java.lang.String[]}, {@code com.acme.Outer$Inner}).
   *
   * @return the types; null when the pattern names none (any parameters match)
   */
  public List<String> parameterTypes() {
    return parameterTypes;
  }

  /**
   * Whether the pattern covers every subtype of its type.
   *
   * @return true for {@code Type+}
   */
  public boolean subtypes() {
    return subtypes;
  }

  /**
   * Whether the type part has a wildcard.
   *
   * @return true if it has {@code *}
   */
  public boolean typeHasWildcard() {
    return typeName.indexOf('*') >= 0;
  }

  @Override
  public String toString() {
    return text;
  }
}
