package dev.weir.agent.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.config.BackendUri;
import dev.weir.redis.RedisServer;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A backend that is a replica accepting writes ({@code replica-read-only no}) keeps buckets that no
 * other server sees: warned once when Weir connects, on a real master and replica.
 */
class WritableReplicaTest {
  @Test
  void aWritableReplicaIsWarnedOnce() throws Exception {
    try (RedisServer master = RedisServer.start();
        RedisServer replica =
            RedisServer.start(
                "--replicaof",
                "127.0.0.1",
                String.valueOf(master.port()),
                "--replica-read-only",
                "no")) {
      AgentLog.capture(true);
      RedisBackend backend = RedisBackend.start(List.of(BackendUri.parse(replica.uri())), 2000, "");
      try {
        SharedBucketContractTest.awaitAnswering(backend);
      } finally {
        backend.close();
      }
      List<String> log = AgentLog.capture(false);
      String all = log.stream().collect(Collectors.joining("\n"));
      assertEquals(
          1, log.stream().filter(l -> l.contains("is a replica that accepts writes")).count(), all);
    }
  }

  @Test
  void aMasterIsNotWarned() throws Exception {
    try (RedisServer master = RedisServer.start()) {
      AgentLog.capture(true);
      RedisBackend backend = RedisBackend.start(List.of(BackendUri.parse(master.uri())), 2000, "");
      try {
        SharedBucketContractTest.awaitAnswering(backend);
      } finally {
        backend.close();
      }
      List<String> log = AgentLog.capture(false);
      assertEquals(
          0, log.stream().filter(l -> l.contains("replica")).count(), String.join("\n", log));
    }
  }
}
