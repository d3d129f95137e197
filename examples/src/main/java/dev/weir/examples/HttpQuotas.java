package dev.weir.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weir.RateLimitedException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP service on the JDK's built-in server with a per-client limit: a client over its limit
 * gets {@code 429 Too Many Requests} with a {@code Retry-After} header in whole seconds, rounded
 * up, so a client that waits exactly that long gets through. {@code /prices} degrades to a cached
 * answer through a fallback method instead of failing.
 *
 * <p>Run under the agent: {@code java -javaagent:agent/target/weir-agent.jar -cp
 * examples/target/weir-examples.jar dev.weir.examples.HttpQuotas} plays a few clients against the
 * service and prints what they got; add {@code --serve 8080} to keep it running for {@code curl -i
 * -H 'X-Client-Id: alice' localhost:8080/quote?symbol=ACME}.
 */
public final class HttpQuotas {
  private final QuoteService service = new QuoteService();
  private final HttpServer server;

  HttpQuotas(int port) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    server.createContext("/quote", this::quote);
    server.createContext("/prices", this::prices);
    server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(8));
    server.start();
  }

  private void quote(HttpExchange exchange) throws IOException {
    String client = exchange.getRequestHeaders().getFirst("X-Client-Id");
    String query = exchange.getRequestURI().getQuery();
    String symbol = query != null && query.startsWith("symbol=") ? query.substring(7) : "ACME";
    try {
      respond(exchange, 200, service.quote(client == null ? "anonymous" : client, symbol));
    } catch (RateLimitedException limited) {
      exchange.getResponseHeaders().set("Retry-After", Long.toString(retryAfterSeconds(limited)));
      respond(exchange, 429, "too many requests for this client");
    }
  }

  private void prices(HttpExchange exchange) throws IOException {
    respond(exchange, 200, service.prices());
  }

  /** Whole seconds, rounded up: waiting exactly this long is always enough. */
  static long retryAfterSeconds(RateLimitedException limited) {
    long nanos = limited.retryAfterNanos();
    long seconds = nanos / 1_000_000_000L + (nanos % 1_000_000_000L == 0 ? 0 : 1);
    return Math.max(1, seconds);
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = (body + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  void stop() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }

  public static void main(String[] args) throws Exception {
    AgentCheck.requireAgent(
        "java -javaagent:agent/target/weir-agent.jar -cp examples/target/weir-examples.jar dev.weir.examples.HttpQuotas");
    if (args.length == 2 && args[0].equals("--serve")) {
      HttpQuotas quotas = new HttpQuotas(Integer.parseInt(args[1]));
      System.out.println("serving on http://127.0.0.1:" + quotas.port() + " (/quote, /prices)");
      return;
    }
    HttpQuotas quotas = new HttpQuotas(0);
    try {
      new Demo(quotas.port()).run();
    } finally {
      quotas.stop();
    }
  }

  /** A few clients against the service. */
  private static final class Demo {
    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;

    Demo(int port) {
      this.base = "http://127.0.0.1:" + port;
    }

    void run() throws Exception {
      List<HttpResponse<String>> alice = burst("/quote?symbol=ACME", "alice", 8);
      System.out.println("alice, 8 requests at once:   " + summary(alice));
      String retryAfter =
          alice.stream()
              .filter(r -> r.statusCode() == 429)
              .map(r -> r.headers().firstValue("Retry-After").orElse("missing"))
              .findFirst()
              .orElse("none");
      System.out.println("alice's Retry-After:         " + retryAfter + " s");
      System.out.println("bob, 3 requests at once:     " + summary(burst("/quote", "bob", 3)));
      if (!retryAfter.equals("none")) {
        TimeUnit.SECONDS.sleep(Long.parseLong(retryAfter));
        HttpResponse<String> again = get("/quote?symbol=ACME", "alice");
        System.out.println("alice after " + retryAfter + " s:             " + again.statusCode());
      }
      List<HttpResponse<String>> prices = burst("/prices", "carol", 25);
      long live = prices.stream().filter(r -> r.body().startsWith("live")).count();
      System.out.println(
          "prices, 25 requests at once: "
              + summary(prices)
              + ", "
              + live
              + " live, "
              + (prices.size() - live)
              + " cached (fallback)");
    }

    private List<HttpResponse<String>> burst(String path, String client, int n) {
      List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        pending.add(http.sendAsync(request(path, client), HttpResponse.BodyHandlers.ofString()));
      }
      List<HttpResponse<String>> responses = new ArrayList<>();
      for (CompletableFuture<HttpResponse<String>> f : pending) {
        responses.add(f.join());
      }
      return responses;
    }

    private HttpResponse<String> get(String path, String client) throws Exception {
      return http.send(request(path, client), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(String path, String client) {
      return HttpRequest.newBuilder(URI.create(base + path)).header("X-Client-Id", client).build();
    }

    private static String summary(List<HttpResponse<String>> responses) {
      long ok = responses.stream().filter(r -> r.statusCode() == 200).count();
      long limited = responses.stream().filter(r -> r.statusCode() == 429).count();
      return ok + " x 200, " + limited + " x 429";
    }
  }
}
