package dev.weir.agent.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.core.FakeClock;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HttpFront} on a real loopback socket, its deadlines on a fake clock: a head must be whole
 * by its deadline however its bytes come, the oldest waiting connection makes room at the bound,
 * and malformed requests never reach a worker.
 */
class HttpFrontTest {
  private static final long HEAD = HttpFront.HEAD_DEADLINE_NANOS;

  private final FakeClock clock = new FakeClock(1_000_000_000L);
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private final AtomicInteger answered = new AtomicInteger();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private HttpFront front;

  /** Answers {@code METHOD PATH} with a body of {@code size} bytes of 'x' after that line. */
  private void serve(int maxConnections, int size) throws IOException {
    front =
        new HttpFront(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            (method, path) -> {
              answered.incrementAndGet();
              byte[] line = (method + " " + path + "\n").getBytes(StandardCharsets.US_ASCII);
              byte[] body = new byte[line.length + size];
              System.arraycopy(line, 0, body, 0, line.length);
              java.util.Arrays.fill(body, line.length, body.length, (byte) 'x');
              return HttpFront.response("200 OK", "X-Test: 1\r\n", body, "HEAD".equals(method));
            },
            pool,
            clock,
            HEAD,
            maxConnections);
    front.start("weir-metrics-test");
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : toClose) {
      c.close();
    }
    if (front != null) {
      front.stop();
    }
    pool.shutdownNow();
  }

  private Socket connect() throws IOException {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), front.port());
    s.setTcpNoDelay(true);
    s.setSoTimeout(10_000); // a bound on a wrong answer, never met by a right one
    toClose.add(s);
    return s;
  }

  private SocketChannel channel() throws IOException {
    SocketChannel c =
        SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), front.port()));
    c.configureBlocking(false);
    toClose.add(c);
    return c;
  }

  /** Sends the request and reads the answer to the end; then closes the connection. */
  private static String exchange(Socket s, String request) throws IOException {
    try (s) {
      s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  /** Whether the server has closed this connection; false while it is open (no data expected). */
  private static boolean closedByServer(SocketChannel c) throws IOException {
    try {
      return c.read(ByteBuffer.allocate(1_024)) < 0;
    } catch (IOException reset) {
      return true;
    }
  }

  private static void awaitClosed(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    try {
      while (in.read() >= 0) {
        // what the server sent before it closed
      }
    } catch (java.net.SocketException reset) {
      // closed with a reset: closed all the same
    }
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    for (long end = System.nanoTime() + 10_000_000_000L; !condition.getAsBoolean(); ) {
      assertTrue(System.nanoTime() - end < 0, what);
      Thread.sleep(2);
    }
  }

  @Test
  void aWholeRequestIsAnsweredHoweverItsBytesArrive() throws Exception {
    serve(8, 0);
    Socket s = connect();
    String request = "GET /metrics?name=x HTTP/1.1\r\nHost: a\r\nAccept: */*\r\n\r\n";
    for (byte b : request.getBytes(StandardCharsets.US_ASCII)) {
      s.getOutputStream().write(b); // one segment a byte, on a clock that never moves
      s.getOutputStream().flush();
    }
    String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    assertEquals(
        "HTTP/1.1 200 OK\r\nX-Test: 1\r\nContent-Length: 13\r\nConnection: close\r\n\r\n"
            + "GET /metrics\n",
        answer);
    assertEquals(
        "HTTP/1.1 200 OK\r\nX-Test: 1\r\nContent-Length: 14\r\nConnection: close\r\n\r\n",
        exchange(connect(), "HEAD http://h:1/metrics HTTP/1.0\n\n"),
        "absolute form, bare line feeds, HEAD without the body");
    assertEquals(
        "HTTP/1.1 200 OK\r\nX-Test: 1\r\nContent-Length: 7\r\nConnection: close\r\n\r\nPOST /\n",
        exchange(connect(), "POST / HTTP/1.1\r\nContent-Length: 5000\r\n\r\n" + "y".repeat(5000)),
        "a body left unread does not reset the answer away");
  }

  @Test
  void aHeadNotWholeByItsDeadlineIsClosedHoweverItsBytesArrive() throws Exception {
    serve(8, 0);
    SocketChannel silent = channel();
    SocketChannel slow = channel();
    slow.write(ByteBuffer.wrap("GET /metrics HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII)));
    assertTrue(exchange(connect(), "GET /a HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 200 OK"));
    for (int i = 0; i < 4; i++) { // a header line a second, for four seconds
      clock.advance(1_000_000_000L);
      slow.write(ByteBuffer.wrap(("X-" + i + ": 1\r\n").getBytes(StandardCharsets.US_ASCII)));
    }
    clock.advance(1_000_000_000L - 1);
    front.poke();
    // a request answered after the poke: the selector thread has looked at the clock since
    assertTrue(exchange(connect(), "GET /b HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 200 OK"));
    assertTrue(!closedByServer(silent) && !closedByServer(slow), "1 ns before the deadline");
    clock.advance(1);
    front.poke();
    silent.configureBlocking(true);
    slow.configureBlocking(true);
    silent.socket().setSoTimeout(10_000);
    awaitClosed(silent.socket());
    awaitClosed(slow.socket());
    assertEquals(2, answered.get());
  }

  @Test
  void atTheBoundTheOldestWaitingConnectionMakesRoom() throws Exception {
    serve(4, 0);
    List<Socket> waiting = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      waiting.add(connect());
    }
    assertTrue(exchange(connect(), "GET /a HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 200 OK"));
    for (int i = 0; i < 3; i++) {
      awaitClosed(waiting.get(i)); // the fifth, sixth and the request's closed the first three
    }
    await(() -> front.openConnections() == 3, "the other three stay: " + front.openConnections());
  }

  @Test
  void aClientThatDoesNotReadItsAnswerIsClosedAtItsDeadline() throws Exception {
    serve(8, 32 << 20); // more than the sockets' buffers hold
    Socket s = connect();
    s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    await(() -> answered.get() == 1, "answered");
    await( // the answer's deadline starts when the selector thread takes it: the clock moves on
        () -> {
          clock.advance(HEAD);
          front.poke();
          return front.openConnections() == 0;
        },
        "closed");
  }

  @Test
  void malformedRequestsNeverReachAWorker() throws Exception {
    serve(8, 0);
    assertTrue(exchange(connect(), "HELLO\r\n\r\n").startsWith("HTTP/1.1 400 Bad Request\r\n"));
    assertTrue(
        exchange(connect(), "GET /a%zz HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 400 "),
        "a target that is not a URI");
    assertTrue(
        exchange(connect(), "GET /a SPDY/3\r\n\r\n").startsWith("HTTP/1.1 400 "), "not HTTP/1");
    String longHead = "GET /a HTTP/1.1\r\nX-Long: " + "z".repeat(HttpFront.MAX_HEAD_BYTES) + "\r\n";
    assertTrue(
        exchange(connect(), longHead).startsWith("HTTP/1.1 431 Request Header Fields Too Large"));
    assertEquals(0, answered.get());
  }

  @Test
  void stoppingClosesEveryConnectionAndTheListener() throws Exception {
    serve(8, 0);
    Socket s = connect();
    int port = front.port();
    front.stop();
    awaitClosed(s);
    try (Socket again = new Socket(InetAddress.getLoopbackAddress(), port)) {
      throw new AssertionError("still listening");
    } catch (java.net.ConnectException refused) {
      // as it should
    }
  }
}
