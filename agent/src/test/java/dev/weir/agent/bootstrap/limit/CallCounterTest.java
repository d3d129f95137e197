package dev.weir.agent.bootstrap.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weir.agent.bootstrap.core.GcraBucketStressTest;
import org.junit.jupiter.api.Test;

/** Per-thread counts: exact totals from many threads, and threads that end keep their counts. */
class CallCounterTest {
  @Test
  void manyThreadsCountExactly() throws Exception {
    CallCounter counter = new CallCounter();
    GcraBucketStressTest.run(
        () -> {
          for (int i = 0; i < 10_000; i++) {
            counter.increment();
          }
        });
    assertEquals(64 * 10_000, counter.sum());
  }

  @Test
  void theCountsOfThreadsGoneAreKeptAndTheirCellsLetGo() throws Exception {
    CallCounter counter = new CallCounter();
    for (int round = 0; round < 50; round++) {
      Thread t =
          new Thread(
              () -> {
                for (int i = 0; i < 3; i++) {
                  counter.increment();
                }
              });
      t.start();
      t.join();
    }
    for (int i = 0; i < 20; i++) {
      System.gc(); // the threads' cells are folded into the base once the threads are collected
      assertEquals(150, counter.sum());
    }
  }

  @Test
  void virtualThreadsCountToo() throws Exception {
    java.lang.reflect.Method ofVirtual;
    try {
      ofVirtual = Thread.class.getMethod("ofVirtual");
    } catch (NoSuchMethodException beforeJava21) {
      org.junit.jupiter.api.Assumptions.assumeTrue(false, "no virtual threads before JDK 21");
      return;
    }
    Object builder = ofVirtual.invoke(null);
    java.lang.reflect.Method unstarted =
        Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class);
    CallCounter counter = new CallCounter();
    Thread[] threads = new Thread[100];
    for (int i = 0; i < threads.length; i++) {
      threads[i] = (Thread) unstarted.invoke(builder, (Runnable) counter::increment);
    }
    for (Thread t : threads) {
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(100, counter.sum());
  }
}
