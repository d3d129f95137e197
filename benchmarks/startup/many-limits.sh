#!/usr/bin/env bash
# Start-up with many config limits: a program of 1,000 classes of ten methods and 100 interfaces of
# ten methods with five implementations each, under a config file of N entries (70% name one
# method, 15% are Type+, 10% http, the rest name classes that never load, five of them wildcards).
# For each N, RUNS starts; prints the medians of: main reached after launch, the classes loaded
# (each woven) after main, and every limiter's MBean visible after main (the program asks the
# platform MBean server every 10 ms from main on).
# Usage: benchmarks/startup/many-limits.sh [RUNS] [N...]   (after mvn -q -DskipTests package)
#   defaults: 5 runs of 10 and 10000 entries; AGENTS="a.jar b.jar" to time other builds, their
#   runs interleaved (a loaded machine then slows each alike)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-5}
shift || true
SIZES=("${@:-10 10000}")
read -r -a JARS <<< "${AGENTS:-$PWD/agent/target/weir-agent.jar}"
for jar in "${JARS[@]}"; do
  [ -f "$jar" ] || { echo "no agent jar $jar (build first: mvn -q -DskipTests package)" >&2; exit 1; }
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/src/gen" "$WORK/classes"
cat > "$WORK/Gen.java" <<'JAVA'
import java.nio.file.*;
public class Gen {
  public static void main(String[] a) throws Exception {
    Path d = Paths.get(a[0]);
    for (int i = 0; i < 1000; i++) {
      StringBuilder s = new StringBuilder("package gen; public class C" + i + " {\n");
      for (int k = 0; k < 10; k++) s.append("  public int m" + k + "() { return " + k + "; }\n");
      Files.write(d.resolve("C" + i + ".java"), s.append("}\n").toString().getBytes());
    }
    for (int j = 0; j < 100; j++) {
      StringBuilder s = new StringBuilder("package gen; public interface I" + j + " {\n");
      for (int k = 0; k < 10; k++) s.append("  int r" + k + "();\n");
      Files.write(d.resolve("I" + j + ".java"), s.append("}\n").toString().getBytes());
      for (int n = 0; n < 5; n++) {
        StringBuilder t = new StringBuilder("package gen; public class I" + j + "Impl" + n + " implements I" + j + " {\n");
        for (int k = 0; k < 10; k++) t.append("  public int r" + k + "() { return " + k + "; }\n");
        Files.write(d.resolve("I" + j + "Impl" + n + ".java"), t.append("}\n").toString().getBytes());
      }
    }
  }
}
JAVA
cat > "$WORK/Config.java" <<'JAVA'
public class Config {
  public static void main(String[] a) {
    int n = Integer.parseInt(a[0]), exact = 0, subtype = 0, other = 0;
    StringBuilder s = new StringBuilder("limits:\n");
    for (int i = 0; i < n; i++) {
      int slot = i % 20;
      s.append("  - name: l").append(i).append('\n');
      if (slot < 14) {
        s.append("    methods: \"gen.C" + (exact / 10 % 1000) + "#m" + exact % 10 + (exact >= 10000 ? "(int)" : "") + "\"\n");
        exact++;
      } else if (slot < 17) {
        s.append("    methods: \"gen.I" + subtype % 100 + "+#r" + subtype / 100 % 10 + (subtype >= 1000 ? "(int)" : "") + "\"\n");
        subtype++;
      } else if (slot < 19) {
        s.append("    http: { paths: \"/api/p" + i + "/**\" }\n");
      } else {
        s.append(other < 5 ? "    methods: \"gen.C" + (other + 1) + "*#m9\"\n" : "    methods: \"com.other.M" + i + "#call\"\n");
        other++;
      }
      s.append("    tokenBucket: { rate: 1000 }\n");
    }
    System.out.print(s);
  }
}
JAVA
cat > "$WORK/src/gen/Main.java" <<'JAVA'
package gen;
import java.lang.management.ManagementFactory;
import javax.management.*;
public class Main {
  public static void main(String[] a) throws Exception {
    long main = System.currentTimeMillis();
    int want = Integer.parseInt(a[0]);
    long[] seen = new long[1];
    Thread poll = new Thread(() -> {
      try {
        MBeanServer s = ManagementFactory.getPlatformMBeanServer();
        ObjectName last = new ObjectName("dev.weir:type=Limiter,name=l" + (want - 1));
        while (!s.isRegistered(last) && System.currentTimeMillis() < main + 60000) Thread.sleep(10);
        seen[0] = System.currentTimeMillis();
      } catch (Exception e) { throw new IllegalStateException(e); }
    });
    poll.start();
    for (int i = 0; i < 1000; i++) Class.forName("gen.C" + i);
    for (int j = 0; j < 100; j++) for (int k = 0; k < 5; k++) Class.forName("gen.I" + j + "Impl" + k);
    long loaded = System.currentTimeMillis();
    poll.join();
    System.out.println(main + " " + (loaded - main) + " " + (seen[0] - main));
  }
}
JAVA
javac -d "$WORK" "$WORK/Gen.java" "$WORK/Config.java"
java -cp "$WORK" Gen "$WORK/src/gen"
javac -d "$WORK/classes" "$WORK"/src/gen/*.java
jar cf "$WORK/app.jar" -C "$WORK/classes" .
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
echo "JDK: $(java -version 2>&1 | head -1); $RUNS runs each; median ms; load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
echo "| agent | entries | main after launch | classes loaded after main | MBeans visible after main |"
echo "|---|---:|---:|---:|---:|"
for n in ${SIZES[*]}; do
  java -cp "$WORK" Config "$n" > "$WORK/weir$n.yaml"
  declare -A mains=() loads=() beans=()
  for i in $(seq "$RUNS"); do
    for a in "${!JARS[@]}"; do
      launch=$(date +%s%3N)
      read -r main load beans_ <<< "$(java -javaagent:"${JARS[$a]}=config=$WORK/weir$n.yaml" -cp "$WORK/app.jar" gen.Main "$n" 2>/dev/null)"
      mains[$a]+="$((main - launch)) " loads[$a]+="$load " beans[$a]+="$beans_ "
    done
  done
  for a in "${!JARS[@]}"; do
    # shellcheck disable=SC2086 # the lists are space-separated numbers
    echo "| ${JARS[$a]} | $n | $(median ${mains[$a]}) | $(median ${loads[$a]}) | $(median ${beans[$a]}) |"
  done
  unset mains loads beans
done
