package dev.weir.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on 127.0.0.1 in front of a server whose every answer reaches the client a fixed delay
 * after the server sent it (requests pass at once): a slow Redis, each exchange of which takes that
 * long, with nothing about it but its speed. For a test's life only; {@link #close()} ends every
 * connection.
 */
public final class SlowProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int targetPort;
  private volatile long delayNanos;
  private final List<Socket> sockets = new ArrayList<>();
  private volatile boolean closed;

  /**
   * Starts a proxy.
   *
   * @param targetPort the server's port on 127.0.0.1
   * @param delayMillis how long each answer is held, in milliseconds
   * @return the proxy, accepting connections
   * @throws IOException if it cannot listen
   */
  public static SlowProxy start(int targetPort, long delayMillis) throws IOException {
    SlowProxy proxy = new SlowProxy(targetPort, delayMillis);
    Thread accept = new Thread(proxy::accept, "slow-proxy-accept");
    accept.setDaemon(true);
    accept.start();
    return proxy;
  }

  private SlowProxy(int targetPort, long delayMillis) throws IOException {
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.targetPort = targetPort;
    this.delayNanos = TimeUnit.MILLISECONDS.toNanos(delayMillis);
  }

  /**
   * The proxy's port.
   *
   * @return the port on 127.0.0.1
   */
  public int port() {
    return listener.getLocalPort();
  }

  /**
   * Changes the delay of the answers read from now on.
   *
   * @param millis the delay, in milliseconds
   */
  public void delayMillis(long millis) {
    delayNanos = TimeUnit.MILLISECONDS.toNanos(millis);
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket("127.0.0.1", targetPort);
        synchronized (sockets) {
          sockets.add(client);
          sockets.add(server);
        }
        pump(client, server, false, "slow-proxy-up");
        pump(server, client, true, "slow-proxy-down");
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /** Copies {@code from} to {@code to}, each chunk sent the delay after it was read if delayed. */
  private void pump(Socket from, Socket to, boolean delayed, String name) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[16384];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) > 0; ) {
                  long due = System.nanoTime() + (delayed ? delayNanos : 0);
                  for (long left; (left = due - System.nanoTime()) > 0; ) {
                    LockSupport.parkNanos(left);
                  }
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // one side closed: the connection ends
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            name);
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // closing
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    listener.close();
    synchronized (sockets) {
      for (Socket s : sockets) {
        closeQuietly(s);
      }
    }
  }
}
