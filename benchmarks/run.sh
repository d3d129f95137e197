#!/usr/bin/env bash
# Runs every Weir benchmark with settings that fit a 2-core machine in about 25 minutes, and writes
# BENCHMARKS.md at the top of the repository from that one run:
#   PeerAcquireBenchmark  Weir's core, Bucket4j, Guava, Resilience4j, Failsafe and a floor; 1 and 2 threads
#   ContendedPairs        two threads on one limiter, the floors, Weir's core, its woven call and
#                         every peer taking turns in short slices
#   AcquireLatency        the latency of each of those calls under the same contention (HdrHistogram)
#   WovenCallBenchmark    an annotated method beside the plain one, in a JVM with -javaagent
#   KeyedAcquireBenchmark per-key acquires beside the plain one
#   CountedAcquireBenchmark  the limiter with its counts beside the core alone; 1 and 2 threads
#   startup/run.sh        start-up of 5,000 classes, Weir beside an agent that does nothing (21 pairs)
#   KeyMemory             heap per key at a million keys, and once idle
#   ShapingAccuracy       departures of a 1,000/s leaky bucket from 8 threads, beside Guava
#   InterruptedWaiters    the rate a shaping bucket keeps while its waiters are interrupted
#   HttpGateBenchmark     the gate in front of servlets, per request
#   WebThroughput         requests/s on an embedded Tomcat with and without the agent
#   RedisThroughput       cluster scope: acquires/s and latency on a local redis-server, beside
#                         Bucket4j's Redis backend and PING; one JVM, then two at once
# Usage: benchmarks/run.sh        (needs a JDK 17+ and Maven; builds first)
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -DskipTests package
JAR=benchmarks/target/weir-benchmarks.jar
AGENT=$PWD/agent/target/weir-agent.jar
OUT=benchmarks/target/results
rm -rf "$OUT"
mkdir -p "$OUT"
jmh() { java -jar "$JAR" -wi 3 -w 1 -i 4 -r 1 -foe true "$@"; }

jmh -t 1 -f 2 -rf json -rff "$OUT/peers-t1.json" PeerAcquireBenchmark
# two threads switch between two speeds within a fork (where the host puts the two virtual CPUs):
# Report shows their levels; ContendedPairs below measures that cell interleaved
jmh -t 2 -f 3 -rf json -rff "$OUT/peers-t2.json" PeerAcquireBenchmark
jmh -t 1 -f 2 -jvmArgsAppend "-javaagent:$AGENT" -rf json -rff "$OUT/woven.json" WovenCallBenchmark
jmh -t 1 -f 2 -rf json -rff "$OUT/keyed.json" KeyedAcquireBenchmark
jmh -t 1 -f 2 -rf json -rff "$OUT/counted-t1.json" CountedAcquireBenchmark
jmh -t 2 -f 2 -rf json -rff "$OUT/counted-t2.json" CountedAcquireBenchmark
benchmarks/startup/run.sh 21 | tee "$OUT/startup.md"
java -Xmx1g -cp "$JAR" dev.weir.benchmarks.KeyMemory | tee "$OUT/memory.txt"
java "-javaagent:$AGENT" -cp "$JAR" dev.weir.benchmarks.ContendedPairs 20 | tee "$OUT/contended.txt"
java "-javaagent:$AGENT" -cp "$JAR" dev.weir.benchmarks.AcquireLatency 10 | tee "$OUT/latency.txt"
java -cp "$JAR" dev.weir.benchmarks.ShapingAccuracy 5 | tee "$OUT/shaping.txt"
java -cp "$JAR" dev.weir.benchmarks.InterruptedWaiters 10 | tee -a "$OUT/shaping.txt"
jmh -t 1 -f 2 -rf json -rff "$OUT/http-gate.json" HttpGateBenchmark
java -cp "$JAR" dev.weir.benchmarks.WebThroughput 8 4 "$AGENT" | tee "$OUT/web.txt"
redis_bench() {
  # a redis-server of its own, on a free port of 127.0.0.1, no persistence
  local port cfg server other start
  port=$(java -cp "$JAR" dev.weir.benchmarks.RedisThroughput --free-port)
  cfg="$OUT/redis-bench.yaml"
  printf 'backend: redis://127.0.0.1:%s\nlimits:\n  - name: redis-bench\n    tokenBucket: { rate: 100000000, capacity: 100000000 }\n    scope: cluster\n' "$port" > "$cfg"
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no > "$OUT/redis-server.log" &
  server=$!
  sleep 1
  local run=(java "-javaagent:$AGENT=config=$cfg" -cp "$JAR" dev.weir.benchmarks.RedisThroughput "$port" 5)
  "${run[@]}" ping,weir,bucket4j 1,8 | tee "$OUT/redis.txt"
  start=$(( $(date +%s%3N) + 4000 ))  # two JVMs whose cells start together
  "${run[@]}" weir,bucket4j 1,8 "$start" > "$OUT/redis-jvm1.txt" &
  other=$!
  "${run[@]}" weir,bucket4j 1,8 "$start" > "$OUT/redis-jvm2.txt"
  wait "$other"
  cat "$OUT/redis-jvm1.txt" "$OUT/redis-jvm2.txt"
  kill "$server"
}
redis_bench
java -cp "$JAR" dev.weir.benchmarks.Report "$OUT" > BENCHMARKS.md
echo "wrote BENCHMARKS.md"
