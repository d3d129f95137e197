package dev.weir.agent.ops;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentThreads;
import dev.weir.agent.bootstrap.core.NanoClock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A small HTTP/1.1 server for one kind of request, {@code GET} without a body: one selector thread
 * does all the socket work (accepting, reading request heads, writing answers), and a pool of
 * workers only computes answers, so no client, however slowly it sends or reads, holds a worker.
 * Each connection carries one request and is closed after its answer ({@code Connection: close}).
 *
 * <p>Why not the JDK's {@code com.sun.net.httpserver}: its workers read request heads themselves,
 * blocking and without a deadline (four connections sending a header line a second took every
 * worker for as long as they stayed open), and its timeouts are JVM-wide system properties that
 * would change the application's own servers of that kind too. Why not a library: the small ones
 * for Java 8 take a thread per connection and bound nothing (NanoHTTPD); the ones that bound both
 * (Netty, Undertow, Jetty) weigh megabytes in the agent jar, and the maintained Undertow and Jetty
 * need Java 11 or 17.
 *
 * <p>Guarantees (guarded by {@code HttpFrontTest} and {@code OperationsIT
 * .scrapesAreAnsweredWhileTwoHundredSlowClientsHoldConnections}):
 *
 * <ol>
 *   <li>G1: a connection whose request head is not complete {@code headNanos} after it was accepted
 *       is closed, however its bytes arrive (a byte a second extends nothing).
 *   <li>G2: at most {@code maxConnections} are open. One accepted at the bound closes the oldest
 *       connection still sending its head, so waiting clients cannot crowd out a new one; if none
 *       is, the new one is closed at once.
 *   <li>G3: a client that does not read its answer is closed {@code headNanos} after the answer was
 *       ready; after its answer, a client is given a second to close its side.
 *   <li>G4: a head longer than {@link #MAX_HEAD_BYTES} is answered 431, a malformed request line
 *       400, without reaching a worker.
 * </ol>
 *
 * <p>Thread-safety: {@link #start}, {@link #stop} and {@link #poke} from any thread; everything
 * else runs on the selector thread, and workers hand answers back through a concurrent queue.
 */
final class HttpFront {
  /** What a client has to send its whole request head in, from its connection's accept. */
  static final long HEAD_DEADLINE_NANOS = 5_000_000_000L;

  /** The bound on open connections. */
  static final int MAX_CONNECTIONS = 256;

  /** The longest request head read. */
  static final int MAX_HEAD_BYTES = 8_192;

  /** How long a client is given to close its side after its answer, in nanoseconds. */
  private static final long LINGER_NANOS = 1_000_000_000L;

  /** How long accepting pauses when the JVM has no file descriptor left, in nanoseconds. */
  private static final long ACCEPT_PAUSE_NANOS = 100_000_000L;

  private static final byte[] NOTHING = new byte[0];

  /** Answers a complete request; called on a worker thread. */
  interface Answer {
    /**
     * The response to a request.
     *
     * @param method the request's method, as sent ({@code GET})
     * @param path the request target's path, percent-decoded; never null
     * @return the whole response, status line to body (see {@link #response}); never null
     */
    byte[] answer(String method, String path);
  }

  private final ServerSocketChannel listener;
  private final Selector selector;
  private final SelectionKey accepting;
  private final Answer answer;
  private final Executor workers;
  private final NanoClock clock;
  private final long headNanos;
  private final int maxConnections;

  /** Open connections in the order they were accepted (selector thread only). */
  private final Set<Connection> open = new LinkedHashSet<Connection>();

  private final Queue<Connection> answered = new ConcurrentLinkedQueue<Connection>();
  private final ByteBuffer buffer = ByteBuffer.allocate(MAX_HEAD_BYTES);
  private long nextLook;
  private long acceptAgainAt;
  private volatile boolean stopping;
  private volatile int openCount;
  private volatile Thread thread;

  /**
   * Listens on {@code address}; nothing is accepted until {@link #start}.
   *
   * @param address where to listen (port 0: any free one)
   * @param answer what answers requests, on {@code workers}
   * @param workers the threads that compute answers
   * @param clock the time deadlines are kept in
   * @param headNanos the deadline of a request head, and of reading an answer, in nanoseconds
   * @param maxConnections the bound on open connections, {@code >= 1}
   * @throws IOException if it cannot listen there (a port in use, say)
   */
  HttpFront(
      InetSocketAddress address,
      Answer answer,
      Executor workers,
      NanoClock clock,
      long headNanos,
      int maxConnections)
      throws IOException {
    this.answer = answer;
    this.workers = workers;
    this.clock = clock;
    this.headNanos = headNanos;
    this.maxConnections = maxConnections;
    selector = Selector.open();
    ServerSocketChannel channel = null;
    try {
      channel = ServerSocketChannel.open();
      channel.bind(address, 128);
      channel.configureBlocking(false);
      accepting = channel.register(selector, SelectionKey.OP_ACCEPT);
    } catch (IOException | RuntimeException e) {
      if (channel != null) {
        channel.close();
      }
      selector.close();
      throw e;
    }
    listener = channel;
  }

  /**
   * Starts serving on a daemon thread of Weir's.
   *
   * @param threadName the thread's name
   */
  void start(String threadName) {
    thread =
        AgentThreads.start(
            new Runnable() {
              @Override
              public void run() {
                serve();
              }
            },
            threadName);
  }

  /**
   * Stops serving and closes every connection; waits up to a second for the thread to end, so a
   * JVM's exit does not wait for a thread in native code.
   */
  void stop() {
    stopping = true;
    selector.wakeup();
    Thread t = thread;
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(1_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Makes the selector thread look at the clock again now (after a fake clock moved). */
  void poke() {
    selector.wakeup();
  }

  /**
   * The port it listens on.
   *
   * @return the port
   */
  int port() {
    return listener.socket().getLocalPort();
  }

  /**
   * How many connections are open, as of the selector thread's last step.
   *
   * @return {@code 0..maxConnections}
   */
  int openConnections() {
    return openCount;
  }

  /**
   * A response that ends with the connection.
   *
   * @param status the status code and reason, {@code 200 OK}
   * @param headers more header lines, each ending with CRLF; may be empty
   * @param body the body
   * @param head true to leave the body out (an answer to {@code HEAD})
   * @return the bytes to send
   */
  static byte[] response(String status, String headers, byte[] body, boolean head) {
    byte[] top =
        ("HTTP/1.1 "
                + status
                + "\r\n"
                + headers
                + "Content-Length: "
                + body.length
                + "\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = new byte[top.length + (head ? 0 : body.length)];
    System.arraycopy(top, 0, all, 0, top.length);
    if (!head) {
      System.arraycopy(body, 0, all, top.length, body.length);
    }
    return all;
  }

  private void serve() {
    nextLook = clock.nanoTime() + headNanos;
    try {
      while (!stopping) {
        long waitNanos = nextLook - clock.nanoTime();
        if (waitNanos > 0) {
          selector.select(Math.max(1, (waitNanos + 999_999) / 1_000_000));
        } else {
          selector.selectNow();
        }
        long now = clock.nanoTime();
        for (Iterator<SelectionKey> i = selector.selectedKeys().iterator(); i.hasNext(); ) {
          SelectionKey key = i.next();
          i.remove();
          if (key == accepting) {
            accept(now);
          } else if (key.isValid()) {
            ready((Connection) key.attachment(), now);
          }
        }
        for (Connection c; (c = answered.poll()) != null; ) {
          startWriting(c, now);
        }
        if (now - nextLook >= 0) {
          look(now);
        }
        openCount = open.size();
      }
    } catch (IOException | RuntimeException e) {
      AgentLog.error("the metrics endpoint stopped: " + e);
    } finally {
      for (Connection c : new ArrayList<Connection>(open)) {
        close(c);
      }
      openCount = 0;
      closeQuietly(listener);
      closeQuietly(selector);
    }
  }

  private void accept(long now) {
    for (int i = 0; i < 64; i++) { // a bounded batch: reads are not starved by a flood of connects
      SocketChannel channel;
      try {
        channel = listener.accept();
      } catch (IOException noDescriptorLeft) {
        accepting.interestOps(0); // the connection stays queued: try again shortly, not in a loop
        acceptAgainAt = now + ACCEPT_PAUSE_NANOS;
        due(acceptAgainAt);
        return;
      }
      if (channel == null) {
        return;
      }
      if (open.size() >= maxConnections && !closeOldestReader()) {
        closeQuietly(channel);
        continue;
      }
      try {
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        Connection c = new Connection(channel);
        c.key = channel.register(selector, SelectionKey.OP_READ, c);
        open.add(c);
        c.deadline = now + headNanos;
        due(c.deadline);
      } catch (IOException e) {
        closeQuietly(channel);
      }
    }
  }

  /** G2: the first connection still reading in accept order is the oldest. */
  private boolean closeOldestReader() {
    for (Connection c : open) {
      if (c.state == Connection.READING) {
        close(c);
        return true;
      }
    }
    return false;
  }

  private void ready(Connection c, long now) {
    try {
      if (c.state == Connection.READING) {
        read(c, now);
      } else if (c.state == Connection.WRITING) {
        write(c, now);
      } else if (c.state == Connection.LINGERING) {
        buffer.clear();
        if (c.channel.read(buffer) < 0) {
          close(c);
        }
      }
    } catch (IOException e) {
      close(c);
    }
  }

  private void read(Connection c, long now) throws IOException {
    buffer.clear();
    if (c.channel.read(buffer) < 0) {
      close(c);
      return;
    }
    buffer.flip();
    c.append(buffer);
    String line = c.requestLine();
    if (line == null && c.full()) {
      c.out = ByteBuffer.wrap(response("431 Request Header Fields Too Large", "", NOTHING, false));
      startWriting(c, now);
      return;
    }
    if (line == null) {
      return; // not whole yet
    }
    final String[] request = request(line);
    if (request == null) {
      c.out = ByteBuffer.wrap(response("400 Bad Request", "", NOTHING, false));
      startWriting(c, now);
      return;
    }
    c.state = Connection.ANSWERING;
    c.key.interestOps(0);
    c.head = null;
    final Connection answering = c;
    try {
      workers.execute(
          new Runnable() {
            @Override
            public void run() {
              answer(answering, request[0], request[1]);
            }
          });
    } catch (RejectedExecutionException e) {
      close(c);
    }
  }

  /** On a worker: computes the answer and hands it back to the selector thread. */
  private void answer(Connection c, String method, String path) {
    byte[] bytes = null;
    try {
      bytes = answer.answer(method, path);
    } catch (RuntimeException e) {
      AgentLog.error("the metrics endpoint could not answer " + method + " " + path + ": " + e);
    } finally {
      c.out =
          ByteBuffer.wrap(
              bytes != null ? bytes : response("500 Internal Server Error", "", NOTHING, false));
      answered.add(c);
      selector.wakeup();
    }
  }

  private void startWriting(Connection c, long now) {
    if (!c.channel.isOpen()) {
      return; // closed while a worker answered: the endpoint is stopping
    }
    c.state = Connection.WRITING;
    c.deadline = now + headNanos;
    due(c.deadline);
    try {
      write(c, now);
    } catch (IOException e) {
      close(c);
    }
  }

  private void write(Connection c, long now) throws IOException {
    c.channel.write(c.out);
    if (c.out.hasRemaining()) {
      c.key.interestOps(SelectionKey.OP_WRITE);
      return;
    }
    // the answer ends with the connection; closing at once while the client's request bytes are
    // unread would reset it and could lose the answer, so the client is given a second to close
    c.channel.shutdownOutput();
    c.state = Connection.LINGERING;
    c.out = null;
    c.key.interestOps(SelectionKey.OP_READ);
    c.deadline = now + LINGER_NANOS;
    due(c.deadline);
  }

  /** Closes what is past its deadline, resumes accepting, and finds the next deadline. */
  private void look(long now) {
    long next = now + headNanos;
    for (Connection c : new ArrayList<Connection>(open)) {
      if (c.state == Connection.ANSWERING) {
        continue; // a worker has it; its deadline starts with the answer
      }
      if (now - c.deadline >= 0) {
        close(c);
      } else if (c.deadline - next < 0) {
        next = c.deadline;
      }
    }
    if (accepting.interestOps() == 0) {
      if (now - acceptAgainAt >= 0) {
        accepting.interestOps(SelectionKey.OP_ACCEPT);
      } else if (acceptAgainAt - next < 0) {
        next = acceptAgainAt;
      }
    }
    nextLook = next;
  }

  private void due(long at) {
    if (at - nextLook < 0) {
      nextLook = at;
    }
  }

  private void close(Connection c) {
    open.remove(c);
    if (c.key != null) {
      c.key.cancel();
    }
    closeQuietly(c.channel);
  }

  private static void closeQuietly(java.io.Closeable closeable) {
    try {
      closeable.close();
    } catch (IOException ignored) {
      // closing: nothing to do about it
    }
  }

  /**
   * The method and the path of a request line, {@code GET /metrics?x=1 HTTP/1.1}.
   *
   * @param line the line, without its line end
   * @return {method, path}, or null if it is not an HTTP/1.x request line
   */
  static String[] request(String line) {
    String[] parts = line.split(" ", -1);
    if (parts.length != 3 || parts[0].isEmpty() || !parts[2].startsWith("HTTP/1.")) {
      return null;
    }
    String path;
    try {
      path = new URI(parts[1]).getPath();
    } catch (URISyntaxException e) {
      return null;
    }
    return new String[] {parts[0], path == null ? "" : path};
  }

  /** A client's connection: where its request head stands, and its answer. */
  private static final class Connection {
    static final int READING = 0;
    static final int ANSWERING = 1;
    static final int WRITING = 2;
    static final int LINGERING = 3;

    final SocketChannel channel;
    SelectionKey key;
    int state = READING;
    long deadline;
    byte[] head = new byte[256];
    int length;
    int scanned;
    ByteBuffer out;

    Connection(SocketChannel channel) {
      this.channel = channel;
    }

    /** Adds what was read to the head, as much as fits (what follows a head is not read). */
    void append(ByteBuffer read) {
      int n = Math.min(read.remaining(), MAX_HEAD_BYTES - length);
      if (length + n > head.length) {
        byte[] larger = new byte[Math.min(MAX_HEAD_BYTES, Math.max(head.length * 2, length + n))];
        System.arraycopy(head, 0, larger, 0, length);
        head = larger;
      }
      read.get(head, length, n);
      length += n;
    }

    /** Whether the head has taken all the room there is. */
    boolean full() {
      return length == MAX_HEAD_BYTES;
    }

    /** The request line, once the whole head (up to its empty line) has come; else null. */
    String requestLine() {
      for (int i = Math.max(0, scanned - 2); i < length; i++) { // each byte looked at once or so
        if (head[i] == '\n'
            && (i + 1 < length && head[i + 1] == '\n'
                || i + 2 < length && head[i + 1] == '\r' && head[i + 2] == '\n')) {
          int end = 0;
          while (head[end] != '\n') {
            end++;
          }
          int lineEnd = end > 0 && head[end - 1] == '\r' ? end - 1 : end;
          return new String(head, 0, lineEnd, StandardCharsets.ISO_8859_1);
        }
      }
      scanned = length;
      return null;
    }
  }
}
