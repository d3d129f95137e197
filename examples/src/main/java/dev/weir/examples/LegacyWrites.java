package dev.weir.examples;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * A legacy program that never mentions Weir: it writes rows into an embedded H2 database as fast as
 * it can and prints the writes it achieved each second. Run it plain, then under the agent with
 * {@code examples/weir-h2.yaml}, which shapes every {@code PreparedStatement#executeUpdate()} to
 * 500 a second:
 *
 * <pre>
 * java -javaagent:agent/target/weir-agent.jar=config=examples/weir-h2.yaml \
 *      -cp examples/target/weir-examples.jar dev.weir.examples.LegacyWrites
 * </pre>
 */
public final class LegacyWrites {
  private LegacyWrites() {}

  public static void main(String[] args) throws SQLException {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:legacy");
        Statement ddl = connection.createStatement()) {
      ddl.execute("create table orders(id bigint primary key, item varchar(40))");
      try (PreparedStatement insert =
          connection.prepareStatement("insert into orders values (?, ?)")) {
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        long id = 0;
        long second = 1;
        long writtenThisSecond = 0;
        for (long now = start; now < end; now = System.nanoTime()) {
          if (now - start >= TimeUnit.SECONDS.toNanos(second)) {
            System.out.printf("second %d: %,d rows written%n", second, writtenThisSecond);
            second++;
            writtenThisSecond = 0;
          }
          insert.setLong(1, id);
          insert.setString(2, "item " + id);
          insert.executeUpdate();
          id++;
          writtenThisSecond++;
        }
        System.out.printf("%,d rows in %d s: %,d rows a second%n", id, seconds, id / seconds);
      }
    }
  }
}
