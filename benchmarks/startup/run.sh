#!/usr/bin/env bash
# Start-up cost of the agent: a program that loads 5,000 classes from a jar, started
#   floor: with an agent whose premain does nothing (the cost of -javaagent itself),
#   weir:  with Weir and no config file,
#   weir10: with Weir and a config file of ten patterns, one of which matches.
# Paired runs (the three variants back to back, RUNS times); prints each variant's median time, and
# the median of the pairs' ratios to the floor with its 95% interval.
# Usage: benchmarks/startup/run.sh [RUNS]   (after mvn -q -DskipTests package)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-21}
# fewer than 6 pairs give no 95% interval of the median
[ "$RUNS" -ge 6 ] || { echo "pairs must be at least 6 for a 95% interval of the median, was $RUNS" >&2; exit 2; }
AGENT=$PWD/agent/target/weir-agent.jar
[ -f "$AGENT" ] || { echo "build first: mvn -q -DskipTests package" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

mkdir -p "$WORK/src/gen" "$WORK/classes" "$WORK/noop"
for i in $(seq 0 4999); do
  printf 'package gen; public class C%d implements java.util.function.IntSupplier {\n  public int getAsInt() { return %d; }\n  int twice() { return 2 * %d; }\n}\n' "$i" "$i" "$i" > "$WORK/src/gen/C$i.java"
done
cat > "$WORK/src/gen/Main.java" <<'JAVA'
package gen;
public class Main {
  public static void main(String[] args) throws Exception {
    long sum = 0;
    for (int i = 0; i < 5000; i++) {
      sum += ((java.util.function.IntSupplier) Class.forName("gen.C" + i).getConstructor().newInstance()).getAsInt();
    }
    if (sum != 12497500L) throw new AssertionError(sum);
  }
}
JAVA
javac -d "$WORK/classes" "$WORK"/src/gen/*.java
jar cf "$WORK/app.jar" -C "$WORK/classes" .
cat > "$WORK/noop/Noop.java" <<'JAVA'
public class Noop { public static void premain(String args, java.lang.instrument.Instrumentation inst) {} }
JAVA
javac -d "$WORK/noop" "$WORK/noop/Noop.java"
printf 'Premain-Class: Noop\n' > "$WORK/noop/manifest"
jar cfm "$WORK/noop.jar" "$WORK/noop/manifest" -C "$WORK/noop" Noop.class
cat > "$WORK/weir.yaml" <<'YAML'
limits:
  - name: p1
    methods: ["com.acme.orders.OrderService#place", "com.acme.orders.*Repository#save*"]
    tokenBucket: { rate: 100 }
  - name: p2
    methods: ["org.example.Sink+#write", "com.acme.billing.Invoice#<init>", "com.acme.mail.Mailer#send(java.lang.String)"]
    leakyBucket: { rate: 10, capacity: 5 }
  - name: p3
    methods: ["com.acme.legacy.Batch$Job#run", "net.vendor.client.*Client#call*", "com.acme.search.Index#query"]
    tokenBucket: { rate: 5, capacity: 5 }
  - name: p4
    methods: ["com.acme.api.Gateway#handle", "gen.C4242#twice"]
    tokenBucket: { rate: 1000 }
YAML

run() { # prints wall milliseconds of one start
  local start end
  start=$(date +%s%N)
  java "$@" -cp "$WORK/app.jar" gen.Main > /dev/null 2>&1 || { echo "failed: java $*" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
floor=() weir=() weir10=()
run -javaagent:"$WORK/noop.jar" > /dev/null   # warm the file cache
for i in $(seq "$RUNS"); do
  # the three starts of a pair back to back, in a rotating order: a machine that changes speed
  # meets all three alike
  for v in $(printf 'f\nw\nt\nf\nw\n' | tail -n +$(( i % 3 + 1 )) | head -3); do
    case $v in
      f) floor+=("$(run -javaagent:"$WORK/noop.jar")") ;;
      w) weir+=("$(run -javaagent:"$AGENT")") ;;
      t) weir10+=("$(run -javaagent:"$AGENT=config=$WORK/weir.yaml")") ;;
    esac
  done
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# the median of the pairs' ratios, with a distribution-free 95% interval: the order statistics k and
# n + 1 - k of the sorted ratios, k the largest with P(Binomial(n, 1/2) < k) <= 2.5%
ratios() { # floor times, then the variant's, as two space-separated lists
  awk -v f="$1" -v w="$2" 'BEGIN {
    n = split(f, a, " "); split(w, b, " ")
    for (i = 1; i <= n; i++) r[i] = b[i] / a[i]
    for (i = 2; i <= n; i++) { x = r[i]; for (j = i - 1; j >= 1 && r[j] > x; j--) r[j + 1] = r[j]; r[j + 1] = x }
    med = (n % 2) ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
    below = 0; term = 0.5 ^ n; k = 0
    for (i = 0; i < n; i++) { if (below + term > 0.025) break; below += term; k = i + 1; term = term * (n - i) / (i + 1) }
    if (k < 1) k = 1
    printf "%.2f | %.2f to %.2f", med, r[k], r[n + 1 - k] }'
}
f=$(median "${floor[@]}"); w=$(median "${weir[@]}"); w10=$(median "${weir10[@]}")
echo "JDK: $(java -version 2>&1 | head -1); pairs: $RUNS; 5,000 classes loaded from a jar"
echo "| start-up | median ms | ratio to floor (median of the pairs') | 95% interval |"
echo "|---|---:|---:|---:|"
echo "| empty agent (floor) | $f | 1.00 | |"
echo "| Weir, no config | $w | $(ratios "${floor[*]}" "${weir[*]}") |"
echo "| Weir, ten patterns (one matches) | $w10 | $(ratios "${floor[*]}" "${weir10[*]}") |"
