package dev.weir.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What a config pattern cannot limit: {@code java.lang}, Weir's own classes, and each JDK method of
 * the list {@code OwnJdkCallsIT} derives, by method and descriptor; every other method can be.
 */
class UnlimitableTest {
  private static String why(String method) {
    int hash = method.indexOf('#');
    int paren = method.indexOf('(', hash);
    return Unlimitable.why(
        method.substring(0, hash), method.substring(hash + 1, paren), method.substring(paren));
  }

  @Test
  void javaLangAndItsSubpackagesAreRefused() {
    for (String method :
        new String[] {
          "java.lang.String#valueOf(Ljava/lang/Object;)Ljava/lang/String;",
          "java.lang.Thread#sleep(J)V",
          "java.lang.ThreadLocal#get()Ljava/lang/Object;",
          "java.lang.invoke.MethodHandle#invokeExact([Ljava/lang/Object;)Ljava/lang/Object;",
          "java.lang.ref.Reference#get()Ljava/lang/Object;",
          "java.lang.reflect.Method#invoke(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;"
        }) {
      assertTrue(why(method).startsWith("java.lang is the JVM's own machinery"), method);
    }
  }

  @Test
  void weirsOwnClassesAreRefusedButNotItsExamplesOrTests() {
    for (String method :
        new String[] {
          "dev.weir.RateLimitedException#retryAfterNanos()J",
          "dev.weir.agent.bootstrap.limit.WeirBridge#acquire(I)J",
          "dev.weir.agent.weave.Weaver#weave([B)[B",
          "dev.weir.agent.shaded.net.bytebuddy.jar.asm.ClassReader#accept(Lx;I)V"
        }) {
      assertEquals("it is part of Weir", why(method), method);
    }
    assertNull(why("dev.weir.it.fixtures.Legacy#load()V"), "a test's class is an application's");
    assertNull(why("dev.weir.examples.Shop#order(Ljava/lang/String;)V"));
  }

  @Test
  void everyListedJdkMethodIsRefusedWithItsPath() {
    assertTrue(Unlimitable.JDK_METHODS.length > 0);
    for (String[] entry : Unlimitable.JDK_METHODS) {
      String reason = why(entry[0]);
      assertNotNull(reason, entry[0]);
      switch (entry[1]) {
        case "acquire":
          assertTrue(reason.startsWith("Weir's acquire path runs it"), entry[0]);
          break;
        case "weave":
          assertTrue(reason.startsWith("the JVM runs it to hand each loading class"), entry[0]);
          break;
        case "log":
          assertTrue(reason.startsWith("Weir's logging runs it"), entry[0]);
          break;
        default:
          throw new AssertionError("no such path: " + entry[1] + " for " + entry[0]);
      }
    }
  }

  @Test
  void theListIsSortedOnceEachAndHoldsNothingRefusedByName() {
    Set<String> seen = new HashSet<>();
    String previous = "";
    for (String[] entry : Unlimitable.JDK_METHODS) {
      String method = entry[0];
      assertTrue(seen.add(method), "twice: " + method);
      assertTrue(previous.compareTo(method) < 0, "not sorted: " + method + " after " + previous);
      previous = method;
      assertFalse(method.startsWith("java.lang."), method);
      assertFalse(Unlimitable.isWeirs(method.substring(0, method.indexOf('#'))), method);
      assertTrue(method.matches("[\\w.$]+#[\\w<>$]+\\([^)]*\\)\\S+"), "not a method: " + method);
    }
    assertEquals(Unlimitable.JDK_METHODS.length, Unlimitable.jdkMethods().size());
  }

  @Test
  void otherJdkMethodsAreLimitable() {
    for (String method :
        new String[] {
          "jdk.internal.net.http.HttpClientImpl#send(Ljava/net/http/HttpRequest;"
              + "Ljava/net/http/HttpResponse$BodyHandler;)Ljava/net/http/HttpResponse;",
          "java.net.http.HttpClient#send(Ljava/net/http/HttpRequest;"
              + "Ljava/net/http/HttpResponse$BodyHandler;)Ljava/net/http/HttpResponse;",
          "java.sql.PreparedStatement#executeUpdate()I",
          "java.io.FileOutputStream#write([B)V",
          "java.util.ArrayList#removeIf(Ljava/util/function/Predicate;)Z",
          // an overload of a listed method is a method of its own
          "java.util.ArrayList#add(ILjava/lang/Object;)V",
          "java.util.concurrent.ConcurrentHashMap#get(I)Ljava/lang/Object;"
        }) {
      assertNull(why(method), method);
    }
    assertNotNull(
        why(
            "java.util.concurrent.ConcurrentHashMap#get(Ljava/lang/Object;)"
                + "Ljava/lang/Object;"),
        "the per-key table's lookup, on every keyed call");
  }
}
