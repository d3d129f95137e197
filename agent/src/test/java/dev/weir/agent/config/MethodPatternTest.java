package dev.weir.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MethodPatternTest {
  @Test
  void exactTypeAndMethod() {
    MethodPattern p = MethodPattern.parse("com.acme.Orders#place");
    assertTrue(p.matchesTypeName("com.acme.Orders"));
    assertFalse(p.matchesTypeName("com.acme.Orders2"));
    assertFalse(p.matchesTypeName("com.acmeXOrders"), "a dot is a dot");
    assertTrue(p.matchesMethod("place", List.of("int")));
    assertFalse(p.matchesMethod("placed", List.of()));
    assertFalse(p.typeHasWildcard());
  }

  @Test
  void wildcardsStayWithinOneName() {
    MethodPattern p = MethodPattern.parse("com.acme.*Service#get*");
    assertTrue(p.matchesTypeName("com.acme.OrderService"));
    assertTrue(p.matchesTypeName("com.acme.Service"));
    assertFalse(p.matchesTypeName("com.acme.sub.OrderService"));
    assertTrue(p.matchesMethod("getAll", List.of()));
    assertTrue(p.matchesMethod("get", List.of()));
    assertFalse(p.matchesMethod("put", List.of()));
    assertTrue(MethodPattern.parse("com.*.Orders#*").matchesTypeName("com.acme.Orders"));
    assertTrue(MethodPattern.parse("com.acme.Outer$*#run").matchesTypeName("com.acme.Outer$Inner"));
  }

  @Test
  void parametersAndSubtypes() {
    MethodPattern p = MethodPattern.parse("java.sql.PreparedStatement+#executeUpdate()");
    assertTrue(p.subtypes());
    assertEquals("java.sql.PreparedStatement", p.typeName());
    assertTrue(p.matchesMethod("executeUpdate", List.of()));
    assertFalse(p.matchesMethod("executeUpdate", List.of("java.lang.String")));
    MethodPattern q = MethodPattern.parse("a.B#m(int, java.lang.String[])");
    assertTrue(q.matchesMethod("m", List.of("int", "java.lang.String[]")));
    assertTrue(MethodPattern.parse("a.B#<init>").matchesMethod("<init>", List.of()));
  }

  @Test
  void malformedPatternsSayWhatIsExpected() {
    for (String bad :
        new String[] {
          "com.acme.Orders", "#m", "a.B#", "a.B#m#n", "a..B#m", "a.B#m(", "a.B#m(int x)", "a.*+#m"
        }) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> MethodPattern.parse(bad), bad);
      assertTrue(
          e.getMessage().startsWith("must be a method pattern like com.example.Type#method"), bad);
    }
  }

  @Test
  void aWildcardMeansMethodsNotConstructors() {
    MethodPattern all = MethodPattern.parse("com.acme.Svc#*");
    assertTrue(all.matchesMethod("get", List.of()));
    assertFalse(all.matchesMethod("<init>", List.of()), "constructors only when named");
    assertFalse(all.matchesMethod("<clinit>", List.of()));
    assertTrue(MethodPattern.parse("com.acme.Svc#<init>").matchesMethod("<init>", List.of()));
  }
}
