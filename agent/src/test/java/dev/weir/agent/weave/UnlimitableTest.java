package dev.weir.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What a config pattern cannot limit: {@code java.lang} and Weir's own classes; every other method
 * can be, Weir's examples and tests included.
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
          "dev.weir.agent.bootstrap.WeirBridge#acquire(I)J",
          "dev.weir.agent.weave.Weaver#weave([B)[B",
          "dev.weir.agent.shaded.net.bytebuddy.jar.asm.ClassReader#accept(Lx;I)V"
        }) {
      assertEquals("it is part of Weir", why(method), method);
    }
    assertNull(why("dev.weir.it.fixtures.Legacy#load()V"), "a test's class is an application's");
    assertNull(why("dev.weir.examples.Shop#order(Ljava/lang/String;)V"));
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
          "java.util.ArrayList#removeIf(Ljava/util/function/Predicate;)Z"
        }) {
      assertNull(why(method), method);
    }
  }
}
