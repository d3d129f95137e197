package dev.weir.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Clients that hold connections to a server the way a slowloris attack does, on one thread of their
 * own until closed: half send a request line and then one header line a second, never finishing the
 * head; half send nothing. A connection the server closes is opened again, so as many stay open as
 * were asked for; reopening is bounded (at most ten rounds of the whole set). What they record: how
 * long the server let each first connection of each kind stay open.
 */
final class SlowClients implements AutoCloseable {
  private final InetSocketAddress server;
  private final Selector selector;
  private final Thread thread;
  private final List<Long> idleHeldNanos = new ArrayList<>();
  private final List<Long> slowHeldNanos = new ArrayList<>();
  private volatile boolean closed;
  private volatile int open;
  private int opened;
  private final int budget;
  private IOException failure;

  /** A client: whether it sends a header line a second, when it was opened, whether it is first. */
  private static final class Client {
    final boolean slow;
    final long openedAt = System.nanoTime();
    final boolean first;
    int lines;

    Client(boolean slow, boolean first) {
      this.slow = slow;
      this.first = first;
    }
  }

  /**
   * Opens {@code count} connections to {@code server} and keeps them open until closed.
   *
   * @param server where to connect
   * @param count how many, half slow and half idle
   */
  SlowClients(InetSocketAddress server, int count) throws IOException {
    this.server = server;
    this.selector = Selector.open();
    this.budget = count * 10;
    for (int i = 0; i < count; i++) {
      connect(i % 2 == 0, true);
    }
    open = count;
    thread = new Thread(this::run, "slow-clients");
    thread.setDaemon(true);
    thread.start();
  }

  private void connect(boolean slow, boolean first) throws IOException {
    SocketChannel channel = SocketChannel.open();
    channel.socket().connect(server, 10_000);
    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    channel.configureBlocking(false);
    Client client = new Client(slow, first);
    channel.register(selector, SelectionKey.OP_READ, client);
    if (slow) {
      write(channel, "GET /metrics HTTP/1.1\r\n");
    }
    opened++;
  }

  private static void write(SocketChannel channel, String text) throws IOException {
    channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)));
  }

  private void run() {
    ByteBuffer sink = ByteBuffer.allocate(4_096);
    long nextLine = System.nanoTime() + 1_000_000_000L;
    try {
      while (!closed) {
        long waitMillis = Math.max(1, (nextLine - System.nanoTime()) / 1_000_000L);
        selector.select(waitMillis);
        for (SelectionKey key : new ArrayList<>(selector.selectedKeys())) {
          selector.selectedKeys().remove(key);
          SocketChannel channel = (SocketChannel) key.channel();
          sink.clear();
          int n;
          try {
            n = channel.read(sink);
          } catch (IOException reset) {
            n = -1;
          }
          if (n < 0) {
            ended(key);
          }
        }
        if (System.nanoTime() - nextLine >= 0) {
          nextLine += 1_000_000_000L;
          for (SelectionKey key : new ArrayList<>(selector.keys())) {
            Client client = (Client) key.attachment();
            if (client.slow && key.isValid()) {
              try {
                write((SocketChannel) key.channel(), "X-Slow-" + client.lines++ + ": 1\r\n");
              } catch (IOException reset) {
                ended(key);
              }
            }
          }
        }
        open = selector.keys().size();
      }
    } catch (IOException e) {
      synchronized (this) {
        failure = e;
      }
    }
  }

  private void ended(SelectionKey key) throws IOException {
    Client client = (Client) key.attachment();
    key.cancel();
    key.channel().close();
    if (client.first) {
      synchronized (this) {
        (client.slow ? slowHeldNanos : idleHeldNanos).add(System.nanoTime() - client.openedAt);
      }
    }
    if (opened < budget && !closed) {
      connect(client.slow, false);
    }
  }

  /** How many connections are open now (as last counted, once a second at least). */
  int open() {
    return open;
  }

  /** How long the server held each first idle connection before closing it, in nanoseconds. */
  synchronized List<Long> idleHeldNanos() {
    return new ArrayList<>(idleHeldNanos);
  }

  /** How long the server held each first slow connection before closing it, in nanoseconds. */
  synchronized List<Long> slowHeldNanos() {
    return new ArrayList<>(slowHeldNanos);
  }

  /** What stopped the clients' thread, if anything. */
  synchronized IOException failure() {
    return failure;
  }

  @Override
  public void close() throws IOException {
    closed = true;
    selector.wakeup();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (SelectionKey key : selector.keys()) {
      key.channel().close();
    }
    selector.close();
  }
}
