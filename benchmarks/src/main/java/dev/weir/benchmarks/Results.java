package dev.weir.benchmarks;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result files that {@code benchmarks/run.sh} leaves in one folder, read: JMH's JSON as {@link
 * Score}s, the {@code key=value} files of the harnesses, and plain text. Notes the JDK and JMH
 * version of the last JMH file read. Not thread-safe.
 */
final class Results {
  private final Path dir;
  private String jdk = "unknown";
  private String jmhVersion = "unknown";

  /**
   * @param dir the results folder
   */
  Results(Path dir) {
    this.dir = dir;
  }

  /** The JVM the JMH benchmarks ran on, name and version, or {@code unknown} before any read. */
  String jdk() {
    return jdk;
  }

  /** The JMH version of the benchmarks, or {@code unknown} before any was read. */
  String jmhVersion() {
    return jmhVersion;
  }

  /**
   * JMH JSON: benchmark method (and {@code /state} where the benchmark has one) to score. Notes the
   * JDK and JMH version the benchmarks ran on.
   *
   * @param file the JSON file's name in the folder
   * @return the scores, in the file's order
   * @throws IOException if the file cannot be read
   */
  Map<String, Score> jmh(String file) throws IOException {
    Map<String, Score> scores = new LinkedHashMap<>();
    JsonArray results = JsonParser.parseString(text(file)).getAsJsonArray();
    for (JsonElement element : results) {
      JsonObject result = element.getAsJsonObject();
      String benchmark = result.get("benchmark").getAsString();
      String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
      JsonObject params = result.getAsJsonObject("params");
      String key =
          params != null && params.has("state")
              ? method + "/" + params.get("state").getAsString()
              : method;
      JsonObject metric = result.getAsJsonObject("primaryMetric");
      List<Double> iterations = new ArrayList<>();
      for (JsonElement fork : metric.getAsJsonArray("rawData")) {
        for (JsonElement iteration : fork.getAsJsonArray()) {
          iterations.add(iteration.getAsDouble());
        }
      }
      scores.put(
          key,
          new Score(
              number(metric.get("score")),
              number(metric.get("scoreError")),
              iterations.stream().mapToDouble(Double::doubleValue).toArray()));
      jdk = result.get("vmName").getAsString() + " " + result.get("vmVersion").getAsString();
      jmhVersion = result.get("jmhVersion").getAsString();
    }
    return scores;
  }

  /**
   * JMH writes "NaN" (a string) for an error it cannot compute, with a single fork say: unknown, so
   * no goal is settled by it.
   */
  private static double number(JsonElement value) {
    return value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber()
        ? value.getAsDouble()
        : Double.NaN;
  }

  /**
   * A {@code key=value} file, one pair a line; lines without a key are passed over.
   *
   * @param file the file's name in the folder
   * @return the values by key, in the file's order
   * @throws IOException if the file cannot be read
   */
  Map<String, String> values(String file) throws IOException {
    Map<String, String> values = new LinkedHashMap<>();
    for (String line : lines(file)) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        values.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return values;
  }

  /**
   * A file's lines, UTF-8.
   *
   * @param file the file's name in the folder
   * @return its lines, without their terminators
   * @throws IOException if the file cannot be read
   */
  List<String> lines(String file) throws IOException {
    return Files.readAllLines(dir.resolve(file), StandardCharsets.UTF_8);
  }

  /**
   * A whole file, UTF-8.
   *
   * @param file the file's name in the folder
   * @return its text
   * @throws IOException if the file cannot be read
   */
  String text(String file) throws IOException {
    return Files.readString(dir.resolve(file), StandardCharsets.UTF_8);
  }
}
