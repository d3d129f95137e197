package dev.weir.agent.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.Limiter;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.Test;

/** The agent's {@code limiterTable()}: the limiter MBeans' attributes, all in one value. */
class LimiterTableTest {
  private final FakeClock clock = new FakeClock(0);

  private BucketLimiter limiter(String name, Discipline d, double rate, long capacity) {
    GcraBucket bucket =
        GcraBucket.create(d, rate, TimeUnit.SECONDS, capacity, false, 0, clock.nanoTime());
    return new BucketLimiter(name, "Test#" + name + "()", bucket, 1, clock);
  }

  @Test
  void eachColumnReadsAsTheMBeans() throws Exception {
    Map<Limiter, ObjectName> beans = new IdentityHashMap<Limiter, ObjectName>();
    MBeanServer server = MBeanServerFactory.newMBeanServer();
    BucketLimiter orders = limiter("orders", Discipline.TOKEN_BUCKET, 10, 5);
    BucketLimiter meter = limiter("meter", Discipline.POLICING, 2.5, 3);
    BucketLimiter quoted = limiter("a,b=c", Discipline.SHAPING, 20, 4);
    BucketLimiter second = limiter("orders", Discipline.TOKEN_BUCKET, 1, 1);
    for (int i = 0; i < 7; i++) {
      orders.acquire();
      meter.acquire();
    }
    second.setDryRun(true);
    second.acquire();
    second.acquire();
    beans.put(orders, Management.name("orders", -1));
    beans.put(meter, Management.name("meter", -1));
    beans.put(quoted, Management.name("a,b=c", -1));
    beans.put(second, Management.name("orders", 3));
    for (Map.Entry<Limiter, ObjectName> e : beans.entrySet()) {
      server.registerMBean(new LimiterBean((BucketLimiter) e.getKey(), null), e.getValue());
    }

    CompositeData table = LimiterTable.of(beans);

    String[] names = (String[]) table.get("MBean");
    assertArrayEquals(
        new String[] {
          "dev.weir:type=Limiter,name=\"a,b=c\"",
          "dev.weir:type=Limiter,name=meter",
          "dev.weir:type=Limiter,name=orders",
          "dev.weir:type=Limiter,name=orders,loader=3"
        },
        names,
        "sorted by MBean name");
    List<String> scalars = new ArrayList<String>();
    for (MBeanAttributeInfo a : server.getMBeanInfo(new ObjectName(names[0])).getAttributes()) {
      if (!a.getType().startsWith("[")) { // Methods and Unlimited, String[], are not in it
        scalars.add(a.getName());
      }
    }
    List<String> columns = new ArrayList<String>(table.getCompositeType().keySet());
    columns.remove("MBean");
    java.util.Collections.sort(scalars);
    java.util.Collections.sort(columns);
    assertEquals(scalars, columns, "a column for each scalar attribute of the MBean");
    for (String column : columns) {
      Object values = table.get(column);
      assertEquals(names.length, Array.getLength(values), column);
      for (int i = 0; i < names.length; i++) {
        assertEquals(
            server.getAttribute(new ObjectName(names[i]), column),
            Array.get(values, i),
            names[i] + " " + column);
      }
    }
    assertEquals(2L, ((long[]) table.get("Rejected"))[2], "orders: 5 of 7 at once");
    assertEquals(true, ((boolean[]) table.get("DryRun"))[3]);
  }

  @Test
  void noLimitersIsAnEmptyTable() {
    CompositeData table = LimiterTable.of(new IdentityHashMap<Limiter, ObjectName>());
    assertEquals(0, ((String[]) table.get("MBean")).length);
    assertEquals(0, ((double[]) table.get("Rate")).length);
  }
}
