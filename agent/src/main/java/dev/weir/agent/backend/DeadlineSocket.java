package dev.weir.agent.backend;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketImpl;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLSocketFactory;
import redis.clients.jedis.DefaultJedisSocketFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A connected socket whose every read waits at most for what is left of the calling thread's {@link
 * CallDeadline} (and never longer than the timeout the client set): the exchanges one call leads to
 * (a TLS handshake, {@code AUTH}, {@code SELECT}, the script and its reload) share one deadline
 * instead of each waiting a timeout of its own. A read made with the deadline passed throws {@link
 * SocketTimeoutException} at once. Everything else is the wrapped socket's; TLS is layered over
 * this socket, so that its handshake reads are bounded too.
 *
 * <p>Used by one connection at a time, as a socket is.
 */
final class DeadlineSocket extends Socket {
  private final Socket socket;

  /** The read timeout the client asked for, in milliseconds (0: none). */
  private volatile int timeoutMillis;

  /** The read timeout set on the wrapped socket now, in milliseconds. */
  private int applied;

  private final InputStream input;

  DeadlineSocket(Socket socket) throws IOException {
    super((SocketImpl) null); // every method below goes to the wrapped socket
    this.socket = socket;
    this.timeoutMillis = socket.getSoTimeout();
    this.applied = timeoutMillis;
    this.input = new DeadlineInput(socket.getInputStream());
  }

  /** Sets the wrapped socket's read timeout for the next read; throws if the deadline passed. */
  private void beforeRead() throws IOException {
    int timeout = timeoutMillis;
    long deadline = CallDeadline.current();
    if (deadline != 0) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new SocketTimeoutException("no answer within backendTimeoutMillis");
      }
      long leftMillis = (left + 999_999L) / 1_000_000L;
      if (timeout == 0 || leftMillis < timeout) {
        timeout = (int) Math.min(Integer.MAX_VALUE, leftMillis);
      }
    }
    if (timeout != applied) {
      socket.setSoTimeout(timeout);
      applied = timeout;
    }
  }

  /** The wrapped socket's input, each read bounded by the deadline. */
  private final class DeadlineInput extends FilterInputStream {
    DeadlineInput(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      beforeRead();
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      beforeRead();
      return in.read(b, off, len);
    }

    @Override
    public long skip(long n) throws IOException {
      beforeRead();
      return in.skip(n);
    }
  }

  /**
   * TLS layered over a {@link DeadlineSocket}: the socket factory Jedis's own TLS path is given
   * ({@code DefaultJedisClientConfig.sslSocketFactory}), so that a handshake's reads are bounded by
   * the call's deadline too. Thread-safe, as the factory it wraps.
   */
  static final class Tls extends SSLSocketFactory {
    private final SSLSocketFactory factory;

    Tls(SSLSocketFactory factory) {
      this.factory = factory;
    }

    @Override
    public Socket createSocket(Socket s, String host, int port, boolean autoClose)
        throws IOException {
      return factory.createSocket(new DeadlineSocket(s), host, port, autoClose);
    }

    @Override
    public String[] getDefaultCipherSuites() {
      return factory.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
      return factory.getSupportedCipherSuites();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
      throw new SocketException("Weir layers TLS over its own sockets only");
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
        throws IOException {
      throw new SocketException("Weir layers TLS over its own sockets only");
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
      throw new SocketException("Weir layers TLS over its own sockets only");
    }

    @Override
    public Socket createSocket(
        InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
      throw new SocketException("Weir layers TLS over its own sockets only");
    }
  }

  /**
   * The sockets of a server's connections: Jedis's own (its connect, bounded by the client's
   * connect timeout, is the first step of a call that needs a new connection), each plain one
   * wrapped in a {@link DeadlineSocket} (a TLS one has one beneath it, from {@link Tls}).
   * Thread-safe.
   */
  static final class Factory implements JedisSocketFactory {
    private final DefaultJedisSocketFactory sockets;
    private final boolean tls;

    Factory(HostAndPort server, JedisClientConfig config) {
      this.sockets = new DefaultJedisSocketFactory(server, config);
      this.tls = config.isSsl();
    }

    @Override
    public Socket createSocket() {
      Socket s = sockets.createSocket();
      if (tls) {
        return s;
      }
      try {
        return new DeadlineSocket(s);
      } catch (IOException e) {
        try {
          s.close();
        } catch (IOException ignored) {
          // failed already
        }
        throw new JedisConnectionException(e);
      }
    }

    @Override
    public String toString() {
      return sockets.toString();
    }
  }

  @Override
  public InputStream getInputStream() throws IOException {
    return input;
  }

  @Override
  public OutputStream getOutputStream() throws IOException {
    return socket.getOutputStream();
  }

  @Override
  public void setSoTimeout(int timeout) throws SocketException {
    socket.setSoTimeout(timeout);
    timeoutMillis = timeout;
    applied = timeout;
  }

  @Override
  public int getSoTimeout() {
    return timeoutMillis;
  }

  @Override
  public void connect(SocketAddress endpoint) throws IOException {
    throw new SocketException("connected already");
  }

  @Override
  public void connect(SocketAddress endpoint, int timeout) throws IOException {
    throw new SocketException("connected already");
  }

  @Override
  public void bind(SocketAddress bindpoint) throws IOException {
    throw new SocketException("bound already");
  }

  @Override
  public InetAddress getInetAddress() {
    return socket.getInetAddress();
  }

  @Override
  public InetAddress getLocalAddress() {
    return socket.getLocalAddress();
  }

  @Override
  public int getPort() {
    return socket.getPort();
  }

  @Override
  public int getLocalPort() {
    return socket.getLocalPort();
  }

  @Override
  public SocketAddress getRemoteSocketAddress() {
    return socket.getRemoteSocketAddress();
  }

  @Override
  public SocketAddress getLocalSocketAddress() {
    return socket.getLocalSocketAddress();
  }

  @Override
  public SocketChannel getChannel() {
    return null; // reads must go through the stream above
  }

  @Override
  public void setTcpNoDelay(boolean on) throws SocketException {
    socket.setTcpNoDelay(on);
  }

  @Override
  public boolean getTcpNoDelay() throws SocketException {
    return socket.getTcpNoDelay();
  }

  @Override
  public void setSoLinger(boolean on, int linger) throws SocketException {
    socket.setSoLinger(on, linger);
  }

  @Override
  public int getSoLinger() throws SocketException {
    return socket.getSoLinger();
  }

  @Override
  public void sendUrgentData(int data) throws IOException {
    socket.sendUrgentData(data);
  }

  @Override
  public void setOOBInline(boolean on) throws SocketException {
    socket.setOOBInline(on);
  }

  @Override
  public boolean getOOBInline() throws SocketException {
    return socket.getOOBInline();
  }

  @Override
  public void setSendBufferSize(int size) throws SocketException {
    socket.setSendBufferSize(size);
  }

  @Override
  public int getSendBufferSize() throws SocketException {
    return socket.getSendBufferSize();
  }

  @Override
  public void setReceiveBufferSize(int size) throws SocketException {
    socket.setReceiveBufferSize(size);
  }

  @Override
  public int getReceiveBufferSize() throws SocketException {
    return socket.getReceiveBufferSize();
  }

  @Override
  public void setKeepAlive(boolean on) throws SocketException {
    socket.setKeepAlive(on);
  }

  @Override
  public boolean getKeepAlive() throws SocketException {
    return socket.getKeepAlive();
  }

  @Override
  public void setTrafficClass(int tc) throws SocketException {
    socket.setTrafficClass(tc);
  }

  @Override
  public int getTrafficClass() throws SocketException {
    return socket.getTrafficClass();
  }

  @Override
  public void setReuseAddress(boolean on) throws SocketException {
    socket.setReuseAddress(on);
  }

  @Override
  public boolean getReuseAddress() throws SocketException {
    return socket.getReuseAddress();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  @Override
  public void shutdownInput() throws IOException {
    socket.shutdownInput();
  }

  @Override
  public void shutdownOutput() throws IOException {
    socket.shutdownOutput();
  }

  @Override
  public boolean isConnected() {
    return socket.isConnected();
  }

  @Override
  public boolean isBound() {
    return socket.isBound();
  }

  @Override
  public boolean isClosed() {
    return socket.isClosed();
  }

  @Override
  public boolean isInputShutdown() {
    return socket.isInputShutdown();
  }

  @Override
  public boolean isOutputShutdown() {
    return socket.isOutputShutdown();
  }

  @Override
  public void setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
    socket.setPerformancePreferences(connectionTime, latency, bandwidth);
  }

  @Override
  public String toString() {
    return socket.toString();
  }
}
