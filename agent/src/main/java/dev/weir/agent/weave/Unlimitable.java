package dev.weir.agent.weave;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The methods a config pattern may reach that Weir refuses to limit, each with the true reason
 * (SPEC "The config file", Patterns): {@code java.lang} and its subpackages, Weir's own classes
 * (the agent's, and the API's of package {@code dev.weir}), and exactly the JDK methods that Weir's
 * own acquire, weaving or logging path runs before it can tell that the call is its own.
 *
 * <h2>Why a method is refused, and why the rest are not</h2>
 *
 * <p>A config limit charges only calls made outside Weir: Weir's own work runs inside a section
 * ({@code CallDepth.enterWeir}), and a call made inside one passes free. What runs <em>before</em>
 * Weir can enter a section, or outside any because it is the hot path of every limited call, would
 * be charged to a limit on it, or call itself without end (the acquire of a limit on {@code
 * AtomicLongFieldUpdater#compareAndSet} would run that method's prologue again):
 *
 * <ul>
 *   <li>the acquire path: the prologue woven into a limited method and everything it calls in the
 *       bridge, the registry, the limiter and the bucket, until it returns, on every call;
 *   <li>the weaving path: what the JVM runs to hand a loading class to Weir's transformer, until
 *       the transformer's section starts;
 *   <li>the logging path: until the logger's section starts.
 * </ul>
 *
 * <p>{@link #JDK_METHODS} lists those methods, found by running each path (the test {@code
 * OwnJdkCallsIT} records every JDK method they enter, on each JDK tested, and fails when one is
 * missing here). Every other JDK method is limitable: the JDK's HTTP clients, its streams and
 * sockets, its collections (Weir's weaving uses them inside its section, where a limit charges
 * nothing).
 *
 * <p>Immutable and thread-safe.
 */
final class Unlimitable {
  private Unlimitable() {}

  /** Which path runs a method of {@link #JDK_METHODS}. */
  private static final String ACQUIRE = "acquire";

  private static final String WEAVE = "weave";

  private static final String LOG = "log";

  /**
   * The JDK methods outside {@code java.lang} that Weir's acquire, weaving or logging path runs
   * before it can tell a call is its own: {@code binary.Class#name(descriptor)} and the path (the
   * acquire path where a method is on two), sorted. The union of what {@code OwnJdkCallsIT}
   * recorded on JDK 17 and on JDK 25 (it prints the lines to add when it finds more). Most run only
   * on a path's first call: class loading and initialization, the JDK's own method handle linking
   * behind the http gate's handles; the rest on every call: the per-key table, the counters, a
   * wait, the http gate's client address.
   */
  static final String[][] JDK_METHODS = {
    {"java.io.ByteArrayOutputStream#<init>()V", "weave"},
    {"java.io.ByteArrayOutputStream#<init>(I)V", "weave"},
    {"java.io.ByteArrayOutputStream#ensureCapacity(I)V", "weave"},
    {"java.io.ByteArrayOutputStream#toByteArray()[B", "weave"},
    {"java.io.ByteArrayOutputStream#write([BII)V", "weave"},
    {"java.io.File#<init>(Ljava/io/File;Ljava/lang/String;)V", "acquire"},
    {"java.io.File#<init>(Ljava/lang/String;Ljava/lang/String;)V", "acquire"},
    {"java.io.File#exists()Z", "acquire"},
    {"java.io.File#getCanonicalPath()Ljava/lang/String;", "acquire"},
    {"java.io.File#getName()Ljava/lang/String;", "acquire"},
    {"java.io.File#getPath()Ljava/lang/String;", "acquire"},
    {"java.io.File#getPrefixLength()I", "acquire"},
    {"java.io.File#isInvalid()Z", "acquire"},
    {"java.io.FileDescriptor#<init>()V", "acquire"},
    {"java.io.FileDescriptor#close()V", "acquire"},
    {"java.io.FileDescriptor#close0()V", "acquire"},
    {"java.io.FileDescriptor#set(I)V", "acquire"},
    {"java.io.FileDescriptor#unregisterCleanup()V", "acquire"},
    {"java.io.FileDescriptor#valid()Z", "acquire"},
    {"java.io.FileDescriptor$1#close(Ljava/io/FileDescriptor;)V", "acquire"},
    {"java.io.FileDescriptor$1#set(Ljava/io/FileDescriptor;I)V", "acquire"},
    {"java.io.FileDescriptor$1#setAppend(Ljava/io/FileDescriptor;Z)V", "acquire"},
    {"java.io.FilterInputStream#<init>(Ljava/io/InputStream;)V", "acquire"},
    {"java.io.FilterInputStream#read([B)I", "weave"},
    {"java.io.InputStream#<init>()V", "acquire"},
    {"java.io.InputStream#read([B)I", "acquire"},
    {"java.io.ObjectStreamField#<init>(Ljava/lang/String;Ljava/lang/Class;)V", "acquire"},
    {"java.io.ObjectStreamField#<init>(Ljava/lang/String;Ljava/lang/Class;Z)V", "acquire"},
    {"java.io.OutputStream#<init>()V", "weave"},
    {"java.io.OutputStream#write([B)V", "acquire"},
    {"java.io.OutputStream#write([BII)V", "acquire"},
    {"java.io.RandomAccessFile#read([BII)I", "acquire"},
    {"java.io.RandomAccessFile#readBytes([BII)I", "acquire"},
    {"java.io.RandomAccessFile#readBytes0([BII)I", "acquire"},
    {"java.io.RandomAccessFile#readFully([BII)V", "acquire"},
    {"java.io.RandomAccessFile#seek(J)V", "acquire"},
    {"java.io.RandomAccessFile#seek0(J)V", "acquire"},
    {"java.io.UnixFileSystem#canonicalize(Ljava/lang/String;)Ljava/lang/String;", "acquire"},
    {"java.io.UnixFileSystem#canonicalize0(Ljava/lang/String;)Ljava/lang/String;", "acquire"},
    {"java.io.UnixFileSystem#getBooleanAttributes0(Ljava/io/File;)I", "acquire"},
    {"java.io.UnixFileSystem#getFileForSysCalls(Ljava/io/File;)Ljava/io/File;", "acquire"},
    {"java.io.UnixFileSystem#getPathForSysCalls(Ljava/lang/String;)Ljava/lang/String;", "acquire"},
    {"java.io.UnixFileSystem#hasBooleanAttributes(Ljava/io/File;I)Z", "acquire"},
    {"java.io.UnixFileSystem#isAbsolute(Ljava/io/File;)Z", "acquire"},
    {"java.io.UnixFileSystem#isInvalid(Ljava/io/File;)Z", "acquire"},
    {"java.io.UnixFileSystem#normalize(Ljava/lang/String;)Ljava/lang/String;", "acquire"},
    {"java.io.UnixFileSystem#prefixLength(Ljava/lang/String;)I", "acquire"},
    {"java.io.UnixFileSystem#resolve(Ljava/io/File;)Ljava/lang/String;", "acquire"},
    {
      "java.io.UnixFileSystem#resolve(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {"java.io.UnixFileSystem#trimSeparator(Ljava/lang/String;)Ljava/lang/String;", "acquire"},
    {"java.net.Inet4Address#<clinit>()V", "acquire"},
    {"java.net.Inet4Address#<init>(Ljava/lang/String;[B)V", "acquire"},
    {"java.net.Inet4Address#getAddress()[B", "acquire"},
    {"java.net.Inet4Address#getHostAddress()Ljava/lang/String;", "acquire"},
    {"java.net.Inet4Address#init()V", "acquire"},
    {"java.net.Inet4Address#numericToTextFormat([B)Ljava/lang/String;", "acquire"},
    {
      "java.net.Inet4Address#parseAddressString(Ljava/lang/String;Z)Ljava/net/Inet4Address;",
      "acquire"
    },
    {"java.net.Inet6AddressImpl#<init>()V", "acquire"},
    {"java.net.InetAddress#<clinit>()V", "acquire"},
    {"java.net.InetAddress#<init>()V", "acquire"},
    {
      "java.net.InetAddress#createBuiltinInetAddressResolver()Ljava/net/spi/InetAddressResolver;",
      "acquire"
    },
    {"java.net.InetAddress#createNameService()Ljava/net/InetAddress$NameService;", "acquire"},
    {"java.net.InetAddress#getAllByName(Ljava/lang/String;)[Ljava/net/InetAddress;", "acquire"},
    {
      "java.net.InetAddress#getAllByName(Ljava/lang/String;Ljava/net/InetAddress;)[Ljava/net/InetAddress;",
      "acquire"
    },
    {"java.net.InetAddress#getByAddress(Ljava/lang/String;[B)Ljava/net/InetAddress;", "acquire"},
    {"java.net.InetAddress#getByAddress([B)Ljava/net/InetAddress;", "acquire"},
    {"java.net.InetAddress#getByName(Ljava/lang/String;)Ljava/net/InetAddress;", "acquire"},
    {"java.net.InetAddress#holder()Ljava/net/InetAddress$InetAddressHolder;", "acquire"},
    {"java.net.InetAddress#init()V", "acquire"},
    {
      "java.net.InetAddress#initializePlatformLookupPolicy()Ljava/net/spi/InetAddressResolver$LookupPolicy;",
      "acquire"
    },
    {"java.net.InetAddress#isIPv4Available()Z", "acquire"},
    {"java.net.InetAddress#isIPv6Supported()Z", "acquire"},
    {"java.net.InetAddress#loadImpl(Ljava/lang/String;)Ljava/net/InetAddressImpl;", "acquire"},
    {"java.net.InetAddress#validate(Ljava/lang/String;)V", "acquire"},
    {"java.net.InetAddress$1#<init>()V", "acquire"},
    {"java.net.InetAddress$InetAddressHolder#<init>()V", "acquire"},
    {"java.net.InetAddress$InetAddressHolder#getAddress()I", "acquire"},
    {"java.net.InetAddress$PlatformNameService#<init>()V", "acquire"},
    {"java.net.InetAddress$PlatformResolver#<init>()V", "acquire"},
    {"java.net.InetAddressImplFactory#create()Ljava/net/InetAddressImpl;", "acquire"},
    {"java.net.InetAddressImplFactory#isIPv6Supported()Z", "acquire"},
    {"java.net.URL#<init>(Ljava/net/URL;Ljava/lang/String;)V", "acquire"},
    {
      "java.net.URL#<init>(Ljava/net/URL;Ljava/lang/String;Ljava/net/URLStreamHandler;)V", "acquire"
    },
    {"java.net.URL#getAuthority()Ljava/lang/String;", "acquire"},
    {"java.net.URL#getDefaultPort()I", "acquire"},
    {"java.net.URL#getFile()Ljava/lang/String;", "acquire"},
    {"java.net.URL#getHost()Ljava/lang/String;", "acquire"},
    {"java.net.URL#getPath()Ljava/lang/String;", "acquire"},
    {"java.net.URL#getPort()I", "acquire"},
    {"java.net.URL#getProtocol()Ljava/lang/String;", "acquire"},
    {"java.net.URL#getQuery()Ljava/lang/String;", "acquire"},
    {"java.net.URL#getRef()Ljava/lang/String;", "acquire"},
    {"java.net.URL#getUserInfo()Ljava/lang/String;", "acquire"},
    {"java.net.URL#isBuiltinStreamHandler(Ljava/lang/String;)Z", "acquire"},
    {"java.net.URL#isBuiltinStreamHandler(Ljava/net/URLStreamHandler;)Z", "acquire"},
    {
      "java.net.URL#set(Ljava/lang/String;Ljava/lang/String;ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)V",
      "acquire"
    },
    {"java.net.URL#toExternalForm()Ljava/lang/String;", "acquire"},
    {"java.net.URL#toString()Ljava/lang/String;", "acquire"},
    {"java.net.URLStreamHandler#getDefaultPort()I", "acquire"},
    {"java.net.URLStreamHandler#parseURL(Ljava/net/URL;Ljava/lang/String;II)V", "acquire"},
    {
      "java.net.URLStreamHandler#setURL(Ljava/net/URL;Ljava/lang/String;Ljava/lang/String;ILjava/lang/String;Ljava/lang/String;)V",
      "acquire"
    },
    {
      "java.net.URLStreamHandler#setURL(Ljava/net/URL;Ljava/lang/String;Ljava/lang/String;ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)V",
      "acquire"
    },
    {"java.net.URLStreamHandler#toExternalForm(Ljava/net/URL;)Ljava/lang/String;", "acquire"},
    {"java.net.spi.InetAddressResolver$LookupPolicy#<init>(I)V", "acquire"},
    {
      "java.net.spi.InetAddressResolver$LookupPolicy#of(I)Ljava/net/spi/InetAddressResolver$LookupPolicy;",
      "acquire"
    },
    {"java.nio.Buffer#<init>(IIIILjava/lang/foreign/MemorySegment;)V", "acquire"},
    {"java.nio.Buffer#capacity()I", "acquire"},
    {"java.nio.Buffer#checkIndex(I)I", "weave"},
    {"java.nio.Buffer#checkSession()V", "acquire"},
    {"java.nio.Buffer#flip()Ljava/nio/Buffer;", "acquire"},
    {"java.nio.Buffer#hasRemaining()Z", "acquire"},
    {"java.nio.Buffer#limit()I", "acquire"},
    {"java.nio.Buffer#limit(I)Ljava/nio/Buffer;", "acquire"},
    {"java.nio.Buffer#position()I", "acquire"},
    {"java.nio.Buffer#position(I)Ljava/nio/Buffer;", "acquire"},
    {"java.nio.Buffer#remaining()I", "acquire"},
    {"java.nio.Buffer#rewind()Ljava/nio/Buffer;", "acquire"},
    {"java.nio.Buffer#scope()Ljdk/internal/misc/ScopedMemoryAccess$Scope;", "weave"},
    {"java.nio.Buffer#session()Ljdk/internal/foreign/MemorySessionImpl;", "acquire"},
    {"java.nio.Buffer$2#acquireSession(Ljava/nio/Buffer;)V", "acquire"},
    {"java.nio.Buffer$2#getBufferAddress(Ljava/nio/Buffer;)J", "acquire"},
    {"java.nio.Buffer$2#newDirectByteBuffer(JI)Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.Buffer$2#releaseSession(Ljava/nio/Buffer;)V", "acquire"},
    {"java.nio.ByteBuffer#<init>(IIIILjava/lang/foreign/MemorySegment;)V", "acquire"},
    {"java.nio.ByteBuffer#<init>(IIII[BILjava/lang/foreign/MemorySegment;)V", "acquire"},
    {"java.nio.ByteBuffer#base()Ljava/lang/Object;", "acquire"},
    {"java.nio.ByteBuffer#flip()Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.ByteBuffer#limit(I)Ljava/nio/Buffer;", "acquire"},
    {"java.nio.ByteBuffer#limit(I)Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.ByteBuffer#position(I)Ljava/nio/Buffer;", "acquire"},
    {"java.nio.ByteBuffer#position(I)Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.ByteBuffer#put(Ljava/nio/ByteBuffer;)Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.ByteBuffer#putBuffer(ILjava/nio/ByteBuffer;II)V", "acquire"},
    {"java.nio.ByteBuffer#rewind()Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.ByteBuffer#wrap([B)Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.ByteBuffer#wrap([BII)Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.ByteOrder#nativeOrder()Ljava/nio/ByteOrder;", "acquire"},
    {"java.nio.DirectByteBuffer#<init>(JJ)V", "acquire"},
    {"java.nio.DirectByteBuffer#attachment()Ljava/lang/Object;", "acquire"},
    {"java.nio.DirectByteBuffer#base()Ljava/lang/Object;", "acquire"},
    {"java.nio.DirectByteBuffer#checkCapacity(J)I", "acquire"},
    {"java.nio.DirectLongBufferU#get(I)J", "weave"},
    {"java.nio.DirectLongBufferU#ix(I)J", "weave"},
    {"java.nio.DirectLongBufferU#put(IJ)Ljava/nio/LongBuffer;", "weave"},
    {"java.nio.HeapByteBuffer#<init>([BIILjava/lang/foreign/MemorySegment;)V", "acquire"},
    {"java.nio.HeapByteBuffer#isDirect()Z", "weave"},
    {"java.nio.HeapByteBuffer#isReadOnly()Z", "acquire"},
    {"java.nio.HeapByteBuffer#put(Ljava/nio/ByteBuffer;)Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.MappedByteBuffer#<init>(IIIILjava/lang/foreign/MemorySegment;)V", "acquire"},
    {"java.nio.MappedByteBuffer#flip()Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.MappedByteBuffer#flip()Ljava/nio/MappedByteBuffer;", "acquire"},
    {"java.nio.MappedByteBuffer#limit(I)Ljava/nio/Buffer;", "acquire"},
    {"java.nio.MappedByteBuffer#limit(I)Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.MappedByteBuffer#limit(I)Ljava/nio/MappedByteBuffer;", "acquire"},
    {"java.nio.MappedByteBuffer#position(I)Ljava/nio/Buffer;", "acquire"},
    {"java.nio.MappedByteBuffer#position(I)Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.MappedByteBuffer#position(I)Ljava/nio/MappedByteBuffer;", "acquire"},
    {"java.nio.MappedByteBuffer#rewind()Ljava/nio/ByteBuffer;", "acquire"},
    {"java.nio.MappedByteBuffer#rewind()Ljava/nio/MappedByteBuffer;", "acquire"},
    {
      "java.nio.channels.Channels#newInputStream(Ljava/nio/channels/ReadableByteChannel;)Ljava/io/InputStream;",
      "acquire"
    },
    {"java.nio.channels.FileChannel#<init>()V", "acquire"},
    {"java.nio.channels.spi.AbstractInterruptibleChannel#<init>()V", "acquire"},
    {"java.nio.channels.spi.AbstractInterruptibleChannel#close()V", "acquire"},
    {"java.nio.channels.spi.AbstractInterruptibleChannel#isOpen()Z", "acquire"},
    {
      "java.nio.channels.spi.AbstractInterruptibleChannel$1#<init>(Ljava/nio/channels/spi/AbstractInterruptibleChannel;)V",
      "acquire"
    },
    {"java.nio.file.FileSystems#getDefault()Ljava/nio/file/FileSystem;", "acquire"},
    {
      "java.nio.file.Files#isRegularFile(Ljava/nio/file/Path;[Ljava/nio/file/LinkOption;)Z",
      "acquire"
    },
    {
      "java.nio.file.Files#newByteChannel(Ljava/nio/file/Path;Ljava/util/Set;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/channels/SeekableByteChannel;",
      "acquire"
    },
    {
      "java.nio.file.Files#newByteChannel(Ljava/nio/file/Path;[Ljava/nio/file/OpenOption;)Ljava/nio/channels/SeekableByteChannel;",
      "acquire"
    },
    {
      "java.nio.file.Files#newInputStream(Ljava/nio/file/Path;[Ljava/nio/file/OpenOption;)Ljava/io/InputStream;",
      "acquire"
    },
    {
      "java.nio.file.Files#provider(Ljava/nio/file/Path;)Ljava/nio/file/spi/FileSystemProvider;",
      "acquire"
    },
    {"java.nio.file.Path#of(Ljava/lang/String;[Ljava/lang/String;)Ljava/nio/file/Path;", "acquire"},
    {
      "java.nio.file.spi.FileSystemProvider#newInputStream(Ljava/nio/file/Path;[Ljava/nio/file/OpenOption;)Ljava/io/InputStream;",
      "acquire"
    },
    {"java.security.AccessControlContext#<init>([Ljava/security/ProtectionDomain;Z)V", "acquire"},
    {
      "java.security.AccessController#doPrivileged(Ljava/security/PrivilegedAction;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "java.security.AccessController#doPrivileged(Ljava/security/PrivilegedExceptionAction;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "java.security.AccessController#executePrivileged(Ljava/security/PrivilegedAction;Ljava/security/AccessControlContext;Ljava/lang/Class;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "java.security.AccessController#executePrivileged(Ljava/security/PrivilegedExceptionAction;Ljava/security/AccessControlContext;Ljava/lang/Class;)Ljava/lang/Object;",
      "acquire"
    },
    {"java.security.AccessController#getContext()Ljava/security/AccessControlContext;", "acquire"},
    {
      "java.security.AccessController#getStackAccessControlContext()Ljava/security/AccessControlContext;",
      "acquire"
    },
    {"java.security.CodeSource#<init>(Ljava/net/URL;[Ljava/security/CodeSigner;)V", "acquire"},
    {"java.security.CodeSource#getCertificates()[Ljava/security/cert/Certificate;", "acquire"},
    {"java.security.CodeSource#getLocation()Ljava/net/URL;", "acquire"},
    {"java.security.CodeSource#getLocationNoFragString()Ljava/lang/String;", "acquire"},
    {"java.security.CodeSource#matchCerts(Ljava/security/CodeSource;Z)Z", "acquire"},
    {"java.security.ProtectionDomain#getCodeSource()Ljava/security/CodeSource;", "acquire"},
    {
      "java.security.SecureClassLoader#defineClass(Ljava/lang/String;[BIILjava/security/CodeSource;)Ljava/lang/Class;",
      "acquire"
    },
    {
      "java.security.SecureClassLoader#getProtectionDomain(Ljava/security/CodeSource;)Ljava/security/ProtectionDomain;",
      "acquire"
    },
    {"java.security.SecureClassLoader$1#<init>(Ljava/security/SecureClassLoader;)V", "acquire"},
    {
      "java.security.SecureClassLoader$CodeSourceKey#<init>(Ljava/security/CodeSource;)V", "acquire"
    },
    {"java.security.SecureClassLoader$CodeSourceKey#equals(Ljava/lang/Object;)Z", "acquire"},
    {"java.security.SecureClassLoader$CodeSourceKey#hashCode()I", "acquire"},
    {"java.security.Security#<clinit>()V", "acquire"},
    {"java.security.Security#getProperty(Ljava/lang/String;)Ljava/lang/String;", "acquire"},
    {"java.security.Security#initialize()V", "acquire"},
    {"java.security.Security$1#<init>()V", "acquire"},
    {
      "java.security.Security$1#put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {"java.security.Security$2#<init>()V", "acquire"},
    {"java.security.Security$SecPropLoader#<clinit>()V", "acquire"},
    {"java.security.Security$SecPropLoader#checkReservedKey(Ljava/lang/String;)V", "acquire"},
    {"java.security.Security$SecPropLoader#debugLoad(ZLjava/lang/Object;)V", "acquire"},
    {"java.security.Security$SecPropLoader#isInclude(Ljava/lang/String;)Z", "acquire"},
    {"java.security.Security$SecPropLoader#loadAll()V", "acquire"},
    {"java.security.Security$SecPropLoader#loadExtra()V", "acquire"},
    {
      "java.security.Security$SecPropLoader#loadFromPath(Ljava/nio/file/Path;Ljava/security/Security$SecPropLoader$LoadingMode;)V",
      "acquire"
    },
    {"java.security.Security$SecPropLoader#loadMaster()V", "acquire"},
    {
      "java.security.Security$SecPropLoader#reset(Ljava/security/Security$SecPropLoader$LoadingMode;)V",
      "acquire"
    },
    {
      "java.security.Security$SecPropLoader$LoadingMode#$values()[Ljava/security/Security$SecPropLoader$LoadingMode;",
      "acquire"
    },
    {"java.security.Security$SecPropLoader$LoadingMode#<clinit>()V", "acquire"},
    {"java.security.Security$SecPropLoader$LoadingMode#<init>(Ljava/lang/String;I)V", "acquire"},
    {"java.util.AbstractCollection#<init>()V", "acquire"},
    {"java.util.AbstractList#<init>()V", "acquire"},
    {"java.util.AbstractList#subListRangeCheck(III)V", "acquire"},
    {"java.util.AbstractMap#<init>()V", "acquire"},
    {"java.util.AbstractSet#<init>()V", "acquire"},
    {"java.util.ArrayDeque#add(Ljava/lang/Object;)Z", "acquire"},
    {"java.util.ArrayDeque#addLast(Ljava/lang/Object;)V", "acquire"},
    {"java.util.ArrayDeque#elementAt([Ljava/lang/Object;I)Ljava/lang/Object;", "acquire"},
    {"java.util.ArrayDeque#inc(II)I", "acquire"},
    {"java.util.ArrayDeque#poll()Ljava/lang/Object;", "acquire"},
    {"java.util.ArrayDeque#pollFirst()Ljava/lang/Object;", "acquire"},
    {"java.util.ArrayList#<init>()V", "acquire"},
    {"java.util.ArrayList#<init>(I)V", "acquire"},
    {"java.util.ArrayList#<init>(Ljava/util/Collection;)V", "acquire"},
    {"java.util.ArrayList#add(Ljava/lang/Object;)Z", "acquire"},
    {"java.util.ArrayList#add(Ljava/lang/Object;[Ljava/lang/Object;I)V", "acquire"},
    {"java.util.ArrayList#addAll(ILjava/util/Collection;)Z", "acquire"},
    {"java.util.ArrayList#addAll(Ljava/util/Collection;)Z", "acquire"},
    {"java.util.ArrayList#clear()V", "acquire"},
    {"java.util.ArrayList#elementData(I)Ljava/lang/Object;", "acquire"},
    {"java.util.ArrayList#get(I)Ljava/lang/Object;", "acquire"},
    {"java.util.ArrayList#getFirst()Ljava/lang/Object;", "acquire"},
    {"java.util.ArrayList#grow()[Ljava/lang/Object;", "acquire"},
    {"java.util.ArrayList#grow(I)[Ljava/lang/Object;", "acquire"},
    {"java.util.ArrayList#isEmpty()Z", "acquire"},
    {"java.util.ArrayList#iterator()Ljava/util/Iterator;", "acquire"},
    {"java.util.ArrayList#rangeCheckForAdd(I)V", "acquire"},
    {"java.util.ArrayList#size()I", "acquire"},
    {"java.util.ArrayList#subList(II)Ljava/util/List;", "acquire"},
    {"java.util.ArrayList#toArray()[Ljava/lang/Object;", "acquire"},
    {"java.util.ArrayList#toArray([Ljava/lang/Object;)[Ljava/lang/Object;", "acquire"},
    {"java.util.ArrayList$Itr#<init>(Ljava/util/ArrayList;)V", "acquire"},
    {"java.util.ArrayList$Itr#checkForComodification()V", "acquire"},
    {"java.util.ArrayList$Itr#hasNext()Z", "acquire"},
    {"java.util.ArrayList$Itr#next()Ljava/lang/Object;", "acquire"},
    {"java.util.ArrayList$SubList#<init>(Ljava/util/ArrayList;II)V", "acquire"},
    {"java.util.ArrayList$SubList#checkForComodification()V", "acquire"},
    {"java.util.ArrayList$SubList#toArray([Ljava/lang/Object;)[Ljava/lang/Object;", "acquire"},
    {"java.util.Arrays#asList([Ljava/lang/Object;)Ljava/util/List;", "acquire"},
    {"java.util.Arrays#copyOf([BI)[B", "acquire"},
    {"java.util.Arrays#copyOf([II)[I", "acquire"},
    {"java.util.Arrays#copyOf([Ljava/lang/Object;I)[Ljava/lang/Object;", "acquire"},
    {
      "java.util.Arrays#copyOf([Ljava/lang/Object;ILjava/lang/Class;)[Ljava/lang/Object;", "acquire"
    },
    {"java.util.Arrays#copyOfRange([BII)[B", "acquire"},
    {"java.util.Arrays#copyOfRange([Ljava/lang/Object;II)[Ljava/lang/Object;", "acquire"},
    {
      "java.util.Arrays#copyOfRange([Ljava/lang/Object;IILjava/lang/Class;)[Ljava/lang/Object;",
      "acquire"
    },
    {"java.util.Arrays#deepToString([Ljava/lang/Object;)Ljava/lang/String;", "acquire"},
    {
      "java.util.Arrays#deepToString([Ljava/lang/Object;Ljava/lang/StringBuilder;Ljava/util/Set;)V",
      "acquire"
    },
    {"java.util.Arrays#equals([B[B)Z", "acquire"},
    {"java.util.Arrays#equals([Ljava/lang/Object;[Ljava/lang/Object;)Z", "acquire"},
    {"java.util.Arrays#fill([Ljava/lang/Object;IILjava/lang/Object;)V", "acquire"},
    {"java.util.Arrays#fill([Ljava/lang/Object;Ljava/lang/Object;)V", "acquire"},
    {"java.util.Arrays#hashCode([Ljava/lang/Object;)I", "acquire"},
    {"java.util.Arrays#mismatch([BII[BII)I", "acquire"},
    {"java.util.Arrays#rangeCheck(III)V", "acquire"},
    {"java.util.Arrays#toString([I)Ljava/lang/String;", "acquire"},
    {"java.util.Arrays$ArrayItr#<init>([Ljava/lang/Object;)V", "acquire"},
    {"java.util.Arrays$ArrayItr#hasNext()Z", "acquire"},
    {"java.util.Arrays$ArrayItr#next()Ljava/lang/Object;", "acquire"},
    {"java.util.Arrays$ArrayList#<init>([Ljava/lang/Object;)V", "acquire"},
    {"java.util.Arrays$ArrayList#iterator()Ljava/util/Iterator;", "acquire"},
    {"java.util.Arrays$ArrayList#size()I", "acquire"},
    {"java.util.Collections#addAll(Ljava/util/Collection;[Ljava/lang/Object;)Z", "acquire"},
    {"java.util.Collections#emptyIterator()Ljava/util/Iterator;", "acquire"},
    {"java.util.Collections#emptyList()Ljava/util/List;", "acquire"},
    {"java.util.Collections#emptySet()Ljava/util/Set;", "acquire"},
    {"java.util.Collections#unmodifiableList(Ljava/util/List;)Ljava/util/List;", "acquire"},
    {"java.util.Collections$EmptyIterator#hasNext()Z", "acquire"},
    {"java.util.Collections$EmptyList#size()I", "acquire"},
    {"java.util.Collections$EmptySet#iterator()Ljava/util/Iterator;", "acquire"},
    {"java.util.Collections$SetFromMap#add(Ljava/lang/Object;)Z", "acquire"},
    {"java.util.Collections$SetFromMap#remove(Ljava/lang/Object;)Z", "acquire"},
    {"java.util.Collections$UnmodifiableCollection#<init>(Ljava/util/Collection;)V", "acquire"},
    {"java.util.Collections$UnmodifiableCollection#iterator()Ljava/util/Iterator;", "acquire"},
    {"java.util.Collections$UnmodifiableCollection#size()I", "acquire"},
    {
      "java.util.Collections$UnmodifiableCollection$1#<init>(Ljava/util/Collections$UnmodifiableCollection;)V",
      "acquire"
    },
    {"java.util.Collections$UnmodifiableCollection$1#hasNext()Z", "acquire"},
    {"java.util.Collections$UnmodifiableCollection$1#next()Ljava/lang/Object;", "acquire"},
    {"java.util.Collections$UnmodifiableList#<init>(Ljava/util/List;)V", "acquire"},
    {"java.util.Collections$UnmodifiableRandomAccessList#<init>(Ljava/util/List;)V", "acquire"},
    {"java.util.Dictionary#<init>()V", "acquire"},
    {"java.util.Formatter#<init>()V", "acquire"},
    {"java.util.Formatter#<init>(Ljava/util/Locale;Ljava/lang/Appendable;)V", "acquire"},
    {"java.util.Formatter#ensureOpen()V", "acquire"},
    {
      "java.util.Formatter#format(Ljava/lang/String;[Ljava/lang/Object;)Ljava/util/Formatter;",
      "acquire"
    },
    {
      "java.util.Formatter#format(Ljava/util/Locale;Ljava/lang/String;[Ljava/lang/Object;)Ljava/util/Formatter;",
      "acquire"
    },
    {"java.util.Formatter#parse(Ljava/lang/String;)Ljava/util/List;", "acquire"},
    {"java.util.Formatter#toString()Ljava/lang/String;", "acquire"},
    {"java.util.Formatter$Conversion#isText(C)Z", "acquire"},
    {"java.util.Formatter$Conversion#isValid(C)Z", "acquire"},
    {"java.util.Formatter$FixedString#<init>(Ljava/lang/String;II)V", "acquire"},
    {
      "java.util.Formatter$FixedString#<init>(Ljava/util/Formatter;Ljava/lang/String;II)V",
      "acquire"
    },
    {"java.util.Formatter$FixedString#index()I", "acquire"},
    {"java.util.Formatter$FixedString#print(Ljava/lang/Object;Ljava/util/Locale;)V", "acquire"},
    {
      "java.util.Formatter$FixedString#print(Ljava/util/Formatter;Ljava/lang/Object;Ljava/util/Locale;)V",
      "acquire"
    },
    {"java.util.Formatter$Flags#contains(II)Z", "acquire"},
    {"java.util.Formatter$Flags#contains(Ljava/util/Formatter$Flags;)Z", "acquire"},
    {"java.util.Formatter$Flags#valueOf()I", "acquire"},
    {"java.util.Formatter$FormatSpecifier#<init>(C)V", "acquire"},
    {"java.util.Formatter$FormatSpecifier#<init>(Ljava/util/Formatter;C)V", "acquire"},
    {
      "java.util.Formatter$FormatSpecifier#appendJustified(Ljava/lang/Appendable;Ljava/lang/CharSequence;)V",
      "acquire"
    },
    {"java.util.Formatter$FormatSpecifier#index()I", "acquire"},
    {"java.util.Formatter$FormatSpecifier#print(Ljava/lang/Object;Ljava/util/Locale;)V", "acquire"},
    {"java.util.Formatter$FormatSpecifier#print(Ljava/lang/String;Ljava/util/Locale;)V", "acquire"},
    {
      "java.util.Formatter$FormatSpecifier#print(Ljava/util/Formatter;Ljava/lang/Object;Ljava/util/Locale;)V",
      "acquire"
    },
    {
      "java.util.Formatter$FormatSpecifier#print(Ljava/util/Formatter;Ljava/lang/String;Ljava/util/Locale;)V",
      "acquire"
    },
    {
      "java.util.Formatter$FormatSpecifier#printString(Ljava/lang/Object;Ljava/util/Locale;)V",
      "acquire"
    },
    {
      "java.util.Formatter$FormatSpecifier#printString(Ljava/util/Formatter;Ljava/lang/Object;Ljava/util/Locale;)V",
      "acquire"
    },
    {"java.util.HashMap#<init>()V", "acquire"},
    {"java.util.HashMap#<init>(I)V", "acquire"},
    {"java.util.HashMap#<init>(IF)V", "acquire"},
    {"java.util.HashMap#afterNodeAccess(Ljava/util/HashMap$Node;)V", "acquire"},
    {"java.util.HashMap#afterNodeInsertion(Z)V", "acquire"},
    {"java.util.HashMap#afterNodeRemoval(Ljava/util/HashMap$Node;)V", "acquire"},
    {"java.util.HashMap#calculateHashMapCapacity(I)I", "acquire"},
    {"java.util.HashMap#containsKey(Ljava/lang/Object;)Z", "acquire"},
    {"java.util.HashMap#entrySet()Ljava/util/Set;", "acquire"},
    {"java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {"java.util.HashMap#getNode(Ljava/lang/Object;)Ljava/util/HashMap$Node;", "acquire"},
    {"java.util.HashMap#hash(Ljava/lang/Object;)I", "acquire"},
    {"java.util.HashMap#newHashMap(I)Ljava/util/HashMap;", "acquire"},
    {
      "java.util.HashMap#newNode(ILjava/lang/Object;Ljava/lang/Object;Ljava/util/HashMap$Node;)Ljava/util/HashMap$Node;",
      "acquire"
    },
    {"java.util.HashMap#put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {
      "java.util.HashMap#putVal(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/lang/Object;",
      "acquire"
    },
    {"java.util.HashMap#remove(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {
      "java.util.HashMap#removeNode(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/util/HashMap$Node;",
      "acquire"
    },
    {"java.util.HashMap#resize()[Ljava/util/HashMap$Node;", "acquire"},
    {"java.util.HashMap#tableSizeFor(I)I", "acquire"},
    {"java.util.HashMap$EntryIterator#<init>(Ljava/util/HashMap;)V", "acquire"},
    {"java.util.HashMap$EntryIterator#next()Ljava/lang/Object;", "acquire"},
    {"java.util.HashMap$EntryIterator#next()Ljava/util/Map$Entry;", "acquire"},
    {"java.util.HashMap$EntrySet#<init>(Ljava/util/HashMap;)V", "acquire"},
    {"java.util.HashMap$EntrySet#iterator()Ljava/util/Iterator;", "acquire"},
    {"java.util.HashMap$HashIterator#<init>(Ljava/util/HashMap;)V", "acquire"},
    {"java.util.HashMap$HashIterator#hasNext()Z", "acquire"},
    {"java.util.HashMap$HashIterator#nextNode()Ljava/util/HashMap$Node;", "acquire"},
    {
      "java.util.HashMap$Node#<init>(ILjava/lang/Object;Ljava/lang/Object;Ljava/util/HashMap$Node;)V",
      "acquire"
    },
    {"java.util.HashMap$Node#getKey()Ljava/lang/Object;", "acquire"},
    {"java.util.HashMap$Node#getValue()Ljava/lang/Object;", "acquire"},
    {"java.util.HashSet#<init>()V", "acquire"},
    {"java.util.HashSet#add(Ljava/lang/Object;)Z", "acquire"},
    {"java.util.HashSet#contains(Ljava/lang/Object;)Z", "acquire"},
    {"java.util.HashSet#remove(Ljava/lang/Object;)Z", "acquire"},
    {"java.util.Hashtable#<init>(Ljava/lang/Void;)V", "acquire"},
    {"java.util.Hashtable#cloneHashtable()Ljava/util/Hashtable;", "acquire"},
    {"java.util.IdentityHashMap#hash(Ljava/lang/Object;I)I", "acquire"},
    {"java.util.IdentityHashMap#maskNull(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {
      "java.util.IdentityHashMap#put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {"java.util.ImmutableCollections#listCopy(Ljava/util/Collection;)Ljava/util/List;", "acquire"},
    {"java.util.ImmutableCollections$AbstractImmutableCollection#<init>()V", "acquire"},
    {"java.util.ImmutableCollections$AbstractImmutableList#<init>()V", "acquire"},
    {
      "java.util.ImmutableCollections$AbstractImmutableList#iterator()Ljava/util/Iterator;",
      "acquire"
    },
    {"java.util.ImmutableCollections$List12#<init>(Ljava/lang/Object;)V", "acquire"},
    {
      "java.util.ImmutableCollections$List12#<init>(Ljava/lang/Object;Ljava/lang/Object;)V",
      "acquire"
    },
    {"java.util.ImmutableCollections$List12#get(I)Ljava/lang/Object;", "acquire"},
    {"java.util.ImmutableCollections$List12#isEmpty()Z", "acquire"},
    {"java.util.ImmutableCollections$List12#size()I", "acquire"},
    {
      "java.util.ImmutableCollections$List12#toArray([Ljava/lang/Object;)[Ljava/lang/Object;",
      "acquire"
    },
    {"java.util.ImmutableCollections$ListItr#<init>(Ljava/util/List;I)V", "acquire"},
    {"java.util.ImmutableCollections$ListItr#hasNext()Z", "acquire"},
    {"java.util.ImmutableCollections$ListItr#next()Ljava/lang/Object;", "acquire"},
    {"java.util.ImmutableCollections$ListN#get(I)Ljava/lang/Object;", "acquire"},
    {"java.util.ImmutableCollections$ListN#isEmpty()Z", "acquire"},
    {"java.util.ImmutableCollections$ListN#size()I", "acquire"},
    {"java.util.ImmutableCollections$ListN#toArray()[Ljava/lang/Object;", "acquire"},
    {"java.util.ImmutableCollections$MapN#get(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {"java.util.ImmutableCollections$Set12#contains(Ljava/lang/Object;)Z", "acquire"},
    {"java.util.ImmutableCollections$SetN#iterator()Ljava/util/Iterator;", "acquire"},
    {
      "java.util.ImmutableCollections$SetN$SetNIterator#<init>(Ljava/util/ImmutableCollections$SetN;)V",
      "acquire"
    },
    {"java.util.ImmutableCollections$SetN$SetNIterator#hasNext()Z", "acquire"},
    {"java.util.LinkedHashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {"java.util.List#copyOf(Ljava/util/Collection;)Ljava/util/List;", "acquire"},
    {"java.util.List#of(Ljava/lang/Object;)Ljava/util/List;", "acquire"},
    {"java.util.List#of([Ljava/lang/Object;)Ljava/util/List;", "acquire"},
    {"java.util.Locale#getDefault(Ljava/util/Locale$Category;)Ljava/util/Locale;", "acquire"},
    {"java.util.Objects#checkFromIndexSize(III)I", "acquire"},
    {"java.util.Objects#checkIndex(II)I", "acquire"},
    {"java.util.Objects#equals(Ljava/lang/Object;Ljava/lang/Object;)Z", "acquire"},
    {"java.util.Objects#hash([Ljava/lang/Object;)I", "acquire"},
    {"java.util.Objects#hashCode(Ljava/lang/Object;)I", "acquire"},
    {"java.util.Objects#requireNonNull(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {
      "java.util.Objects#requireNonNull(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Object;",
      "acquire"
    },
    {"java.util.Properties#<init>()V", "acquire"},
    {"java.util.Properties#<init>(Ljava/util/Properties;I)V", "acquire"},
    {"java.util.Properties#clone()Ljava/lang/Object;", "acquire"},
    {"java.util.Properties#getProperty(Ljava/lang/String;)Ljava/lang/String;", "acquire"},
    {
      "java.util.Properties#getProperty(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {"java.util.Properties#load(Ljava/io/InputStream;)V", "acquire"},
    {"java.util.Properties#load0(Ljava/util/Properties$LineReader;)V", "acquire"},
    {
      "java.util.Properties#loadConvert([CIILjava/lang/StringBuilder;)Ljava/lang/String;", "acquire"
    },
    {"java.util.Properties#put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {"java.util.Properties$LineReader#<init>(Ljava/io/InputStream;)V", "acquire"},
    {"java.util.Properties$LineReader#readLine()I", "acquire"},
    {"java.util.Set#of()Ljava/util/Set;", "acquire"},
    {"java.util.TreeMap#<init>(Ljava/util/Comparator;)V", "acquire"},
    {
      "java.util.TreeMap#addEntry(Ljava/lang/Object;Ljava/lang/Object;Ljava/util/TreeMap$Entry;Z)V",
      "acquire"
    },
    {"java.util.TreeMap#addEntryToEmptyMap(Ljava/lang/Object;Ljava/lang/Object;)V", "acquire"},
    {"java.util.TreeMap#compare(Ljava/lang/Object;Ljava/lang/Object;)I", "acquire"},
    {"java.util.TreeMap#entrySet()Ljava/util/Set;", "acquire"},
    {"java.util.TreeMap#fixAfterInsertion(Ljava/util/TreeMap$Entry;)V", "acquire"},
    {"java.util.TreeMap#getFirstEntry()Ljava/util/TreeMap$Entry;", "acquire"},
    {"java.util.TreeMap#put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {"java.util.TreeMap#put(Ljava/lang/Object;Ljava/lang/Object;Z)Ljava/lang/Object;", "acquire"},
    {"java.util.TreeMap#successor(Ljava/util/TreeMap$Entry;)Ljava/util/TreeMap$Entry;", "acquire"},
    {
      "java.util.TreeMap$Entry#<init>(Ljava/lang/Object;Ljava/lang/Object;Ljava/util/TreeMap$Entry;)V",
      "acquire"
    },
    {"java.util.TreeMap$Entry#getKey()Ljava/lang/Object;", "acquire"},
    {"java.util.TreeMap$Entry#getValue()Ljava/lang/Object;", "acquire"},
    {
      "java.util.TreeMap$EntryIterator#<init>(Ljava/util/TreeMap;Ljava/util/TreeMap$Entry;)V",
      "acquire"
    },
    {"java.util.TreeMap$EntryIterator#next()Ljava/lang/Object;", "acquire"},
    {"java.util.TreeMap$EntryIterator#next()Ljava/util/Map$Entry;", "acquire"},
    {"java.util.TreeMap$EntrySet#<init>(Ljava/util/TreeMap;)V", "acquire"},
    {"java.util.TreeMap$EntrySet#iterator()Ljava/util/Iterator;", "acquire"},
    {
      "java.util.TreeMap$PrivateEntryIterator#<init>(Ljava/util/TreeMap;Ljava/util/TreeMap$Entry;)V",
      "acquire"
    },
    {"java.util.TreeMap$PrivateEntryIterator#hasNext()Z", "acquire"},
    {"java.util.TreeMap$PrivateEntryIterator#nextEntry()Ljava/util/TreeMap$Entry;", "acquire"},
    {"java.util.WeakHashMap#<init>()V", "acquire"},
    {"java.util.WeakHashMap#<init>(IF)V", "acquire"},
    {"java.util.WeakHashMap#expungeStaleEntries()V", "acquire"},
    {"java.util.WeakHashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {"java.util.WeakHashMap#getTable()[Ljava/util/WeakHashMap$Entry;", "acquire"},
    {"java.util.WeakHashMap#hash(Ljava/lang/Object;)I", "acquire"},
    {"java.util.WeakHashMap#indexFor(II)I", "acquire"},
    {"java.util.WeakHashMap#maskNull(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {
      "java.util.WeakHashMap#matchesKey(Ljava/util/WeakHashMap$Entry;Ljava/lang/Object;)Z",
      "acquire"
    },
    {"java.util.WeakHashMap#newTable(I)[Ljava/util/WeakHashMap$Entry;", "acquire"},
    {
      "java.util.WeakHashMap#put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", "acquire"
    },
    {"java.util.WeakHashMap#remove(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {
      "java.util.WeakHashMap$Entry#<init>(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/ref/ReferenceQueue;ILjava/util/WeakHashMap$Entry;)V",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap#<init>()V", "acquire"},
    {"java.util.concurrent.ConcurrentHashMap#<init>(I)V", "acquire"},
    {"java.util.concurrent.ConcurrentHashMap#<init>(IFI)V", "acquire"},
    {"java.util.concurrent.ConcurrentHashMap#<init>(Ljava/util/Map;)V", "acquire"},
    {"java.util.concurrent.ConcurrentHashMap#addCount(JI)V", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap#casTabAt([Ljava/util/concurrent/ConcurrentHashMap$Node;ILjava/util/concurrent/ConcurrentHashMap$Node;Ljava/util/concurrent/ConcurrentHashMap$Node;)Z",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap#compute(Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap#computeIfAbsent(Ljava/lang/Object;Ljava/util/function/Function;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap#computeIfPresent(Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap#entrySet()Ljava/util/Set;", "acquire"},
    {"java.util.concurrent.ConcurrentHashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap#initTable()[Ljava/util/concurrent/ConcurrentHashMap$Node;",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap#isEmpty()Z", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap#put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap#putAll(Ljava/util/Map;)V", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap#putIfAbsent(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap#putVal(Ljava/lang/Object;Ljava/lang/Object;Z)Ljava/lang/Object;",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap#replace(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Z",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap#replaceNode(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap#resizeStamp(I)I", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap#setTabAt([Ljava/util/concurrent/ConcurrentHashMap$Node;ILjava/util/concurrent/ConcurrentHashMap$Node;)V",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap#size()I", "acquire"},
    {"java.util.concurrent.ConcurrentHashMap#spread(I)I", "acquire"},
    {"java.util.concurrent.ConcurrentHashMap#sumCount()J", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap#tabAt([Ljava/util/concurrent/ConcurrentHashMap$Node;I)Ljava/util/concurrent/ConcurrentHashMap$Node;",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap#tableSizeFor(I)I", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap#transfer([Ljava/util/concurrent/ConcurrentHashMap$Node;[Ljava/util/concurrent/ConcurrentHashMap$Node;)V",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap#values()Ljava/util/Collection;", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap$BaseIterator#<init>([Ljava/util/concurrent/ConcurrentHashMap$Node;IIILjava/util/concurrent/ConcurrentHashMap;)V",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap$BaseIterator#hasNext()Z", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap$CollectionView#<init>(Ljava/util/concurrent/ConcurrentHashMap;)V",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap$EntryIterator#<init>([Ljava/util/concurrent/ConcurrentHashMap$Node;IIILjava/util/concurrent/ConcurrentHashMap;)V",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap$EntryIterator#next()Ljava/lang/Object;", "acquire"},
    {"java.util.concurrent.ConcurrentHashMap$EntryIterator#next()Ljava/util/Map$Entry;", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap$EntrySetView#<init>(Ljava/util/concurrent/ConcurrentHashMap;)V",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap$EntrySetView#iterator()Ljava/util/Iterator;",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap$ForwardingNode#<init>([Ljava/util/concurrent/ConcurrentHashMap$Node;)V",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap$MapEntry#<init>(Ljava/lang/Object;Ljava/lang/Object;Ljava/util/concurrent/ConcurrentHashMap;)V",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap$MapEntry#getKey()Ljava/lang/Object;", "acquire"},
    {"java.util.concurrent.ConcurrentHashMap$MapEntry#getValue()Ljava/lang/Object;", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap$Node#<init>(ILjava/lang/Object;Ljava/lang/Object;)V",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap$Node#<init>(ILjava/lang/Object;Ljava/lang/Object;Ljava/util/concurrent/ConcurrentHashMap$Node;)V",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap$ReservationNode#<init>()V", "acquire"},
    {
      "java.util.concurrent.ConcurrentHashMap$Traverser#<init>([Ljava/util/concurrent/ConcurrentHashMap$Node;III)V",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap$Traverser#advance()Ljava/util/concurrent/ConcurrentHashMap$Node;",
      "acquire"
    },
    {
      "java.util.concurrent.ConcurrentHashMap$ValueIterator#<init>([Ljava/util/concurrent/ConcurrentHashMap$Node;IIILjava/util/concurrent/ConcurrentHashMap;)V",
      "acquire"
    },
    {"java.util.concurrent.ConcurrentHashMap$ValueIterator#next()Ljava/lang/Object;", "acquire"},
    {"java.util.concurrent.ConcurrentHashMap$ValuesView#iterator()Ljava/util/Iterator;", "acquire"},
    {"java.util.concurrent.ConcurrentSkipListMap#<clinit>()V", "acquire"},
    {"java.util.concurrent.ConcurrentSkipListMap#<init>()V", "acquire"},
    {"java.util.concurrent.ConcurrentSkipListSet#<init>()V", "acquire"},
    {"java.util.concurrent.CopyOnWriteArrayList#<init>()V", "acquire"},
    {"java.util.concurrent.CopyOnWriteArrayList#add(Ljava/lang/Object;)Z", "acquire"},
    {"java.util.concurrent.CopyOnWriteArrayList#getArray()[Ljava/lang/Object;", "acquire"},
    {"java.util.concurrent.CopyOnWriteArrayList#setArray([Ljava/lang/Object;)V", "acquire"},
    {"java.util.concurrent.atomic.AtomicInteger#<init>()V", "acquire"},
    {"java.util.concurrent.atomic.AtomicInteger#decrementAndGet()I", "acquire"},
    {"java.util.concurrent.atomic.AtomicInteger#getAndAdd(I)I", "acquire"},
    {"java.util.concurrent.atomic.AtomicInteger#incrementAndGet()I", "acquire"},
    {"java.util.concurrent.atomic.AtomicLong#<init>(J)V", "acquire"},
    {"java.util.concurrent.atomic.AtomicLong#getAndIncrement()J", "acquire"},
    {"java.util.concurrent.atomic.AtomicLongArray#<clinit>()V", "acquire"},
    {"java.util.concurrent.atomic.AtomicLongArray#<init>(I)V", "acquire"},
    {"java.util.concurrent.atomic.AtomicLongArray#addAndGet(IJ)J", "acquire"},
    {"java.util.concurrent.atomic.AtomicLongArray#get(I)J", "acquire"},
    {"java.util.concurrent.atomic.AtomicLongArray#incrementAndGet(I)J", "acquire"},
    {"java.util.concurrent.atomic.AtomicLongArray#lazySet(IJ)V", "acquire"},
    {"java.util.concurrent.atomic.AtomicLongArray#length()I", "acquire"},
    {"java.util.concurrent.atomic.AtomicLongFieldUpdater#<init>()V", "acquire"},
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater#newUpdater(Ljava/lang/Class;Ljava/lang/String;)Ljava/util/concurrent/atomic/AtomicLongFieldUpdater;",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#<init>(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/Class;)V",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#accessCheck(Ljava/lang/Object;)V",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#compareAndSet(Ljava/lang/Object;JJ)Z",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#get(Ljava/lang/Object;)J",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#getAndAdd(Ljava/lang/Object;J)J",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#getAndIncrement(Ljava/lang/Object;)J",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#getAndSet(Ljava/lang/Object;J)J",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#incrementAndGet(Ljava/lang/Object;)J",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater#lazySet(Ljava/lang/Object;J)V",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater$1#<init>(Ljava/util/concurrent/atomic/AtomicLongFieldUpdater$CASUpdater;Ljava/lang/Class;Ljava/lang/String;)V",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater$1#run()Ljava/lang/Object;",
      "acquire"
    },
    {
      "java.util.concurrent.atomic.AtomicLongFieldUpdater$CASUpdater$1#run()Ljava/lang/reflect/Field;",
      "acquire"
    },
    {"java.util.concurrent.atomic.LongAdder#add(J)V", "acquire"},
    {"java.util.concurrent.atomic.LongAdder#increment()V", "acquire"},
    {"java.util.concurrent.atomic.Striped64#casBase(JJ)Z", "acquire"},
    {"java.util.concurrent.locks.AbstractOwnableSynchronizer#<init>()V", "acquire"},
    {
      "java.util.concurrent.locks.AbstractOwnableSynchronizer#getExclusiveOwnerThread()Ljava/lang/Thread;",
      "acquire"
    },
    {
      "java.util.concurrent.locks.AbstractOwnableSynchronizer#setExclusiveOwnerThread(Ljava/lang/Thread;)V",
      "acquire"
    },
    {"java.util.concurrent.locks.AbstractQueuedSynchronizer#<init>()V", "acquire"},
    {"java.util.concurrent.locks.AbstractQueuedSynchronizer#compareAndSetState(II)Z", "acquire"},
    {"java.util.concurrent.locks.AbstractQueuedSynchronizer#getState()I", "acquire"},
    {"java.util.concurrent.locks.AbstractQueuedSynchronizer#release(I)Z", "acquire"},
    {"java.util.concurrent.locks.AbstractQueuedSynchronizer#setState(I)V", "acquire"},
    {
      "java.util.concurrent.locks.AbstractQueuedSynchronizer#signalNext(Ljava/util/concurrent/locks/AbstractQueuedSynchronizer$Node;)V",
      "acquire"
    },
    {"java.util.concurrent.locks.LockSupport#<clinit>()V", "acquire"},
    {"java.util.concurrent.locks.LockSupport#parkNanos(J)V", "acquire"},
    {"java.util.concurrent.locks.LockSupport#unpark(Ljava/lang/Thread;)V", "acquire"},
    {"java.util.concurrent.locks.ReentrantLock#<init>()V", "acquire"},
    {"java.util.concurrent.locks.ReentrantLock#isHeldByCurrentThread()Z", "acquire"},
    {"java.util.concurrent.locks.ReentrantLock#lock()V", "acquire"},
    {"java.util.concurrent.locks.ReentrantLock#unlock()V", "acquire"},
    {"java.util.concurrent.locks.ReentrantLock$NonfairSync#<init>()V", "acquire"},
    {"java.util.concurrent.locks.ReentrantLock$NonfairSync#initialTryLock()Z", "acquire"},
    {"java.util.concurrent.locks.ReentrantLock$Sync#<init>()V", "acquire"},
    {"java.util.concurrent.locks.ReentrantLock$Sync#isHeldExclusively()Z", "acquire"},
    {"java.util.concurrent.locks.ReentrantLock$Sync#lock()V", "acquire"},
    {"java.util.concurrent.locks.ReentrantLock$Sync#tryRelease(I)Z", "acquire"},
    {"java.util.jar.Attributes#get(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {
      "java.util.jar.Attributes#getValue(Ljava/util/jar/Attributes$Name;)Ljava/lang/String;",
      "acquire"
    },
    {"java.util.jar.Attributes$Name#hashCode()I", "acquire"},
    {"java.util.jar.JarEntry#<init>(Ljava/lang/String;)V", "acquire"},
    {"java.util.jar.JarFile#checkForSpecialAttributes()V", "acquire"},
    {"java.util.jar.JarFile#ensureInitialization()V", "acquire"},
    {"java.util.jar.JarFile#entryFor(Ljava/lang/String;)Ljava/util/jar/JarEntry;", "acquire"},
    {"java.util.jar.JarFile#getEntry(Ljava/lang/String;)Ljava/util/zip/ZipEntry;", "acquire"},
    {
      "java.util.jar.JarFile#getInputStream(Ljava/util/zip/ZipEntry;)Ljava/io/InputStream;",
      "acquire"
    },
    {"java.util.jar.JarFile#getJarEntry(Ljava/lang/String;)Ljava/util/jar/JarEntry;", "acquire"},
    {"java.util.jar.JarFile#getManifest()Ljava/util/jar/Manifest;", "acquire"},
    {"java.util.jar.JarFile#getManifestFromReference()Ljava/util/jar/Manifest;", "acquire"},
    {"java.util.jar.JarFile#isMultiRelease()Z", "acquire"},
    {"java.util.jar.JarFile#maybeInstantiateVerifier()V", "acquire"},
    {
      "java.util.jar.JarFile$JarFileEntry#<init>(Ljava/util/jar/JarFile;Ljava/lang/String;)V",
      "acquire"
    },
    {"java.util.jar.JarFile$JarFileEntry#getCodeSigners()[Ljava/security/CodeSigner;", "acquire"},
    {
      "java.util.jar.JavaUtilJarAccessImpl#ensureInitialization(Ljava/util/jar/JarFile;)V",
      "acquire"
    },
    {
      "java.util.jar.JavaUtilJarAccessImpl#entryFor(Ljava/util/jar/JarFile;Ljava/lang/String;)Ljava/util/jar/JarEntry;",
      "acquire"
    },
    {
      "java.util.jar.JavaUtilJarAccessImpl#getTrustedAttributes(Ljava/util/jar/Manifest;Ljava/lang/String;)Ljava/util/jar/Attributes;",
      "acquire"
    },
    {
      "java.util.jar.Manifest#getAttributes(Ljava/lang/String;)Ljava/util/jar/Attributes;",
      "acquire"
    },
    {"java.util.jar.Manifest#getEntries()Ljava/util/Map;", "acquire"},
    {"java.util.jar.Manifest#getMainAttributes()Ljava/util/jar/Attributes;", "acquire"},
    {
      "java.util.jar.Manifest#getTrustedAttributes(Ljava/lang/String;)Ljava/util/jar/Attributes;",
      "acquire"
    },
    {"java.util.regex.ASCII#isDigit(I)Z", "acquire"},
    {
      "java.util.regex.CharPredicates#ASCII_DIGIT()Ljava/util/regex/Pattern$BmpCharPredicate;",
      "acquire"
    },
    {"java.util.regex.CharPredicates#lambda$ASCII_DIGIT$0(I)Z", "acquire"},
    {"java.util.regex.CharPredicates#lambda$ASCII_DIGIT$18(I)Z", "acquire"},
    {
      "java.util.regex.Matcher#<init>(Ljava/util/regex/Pattern;Ljava/lang/CharSequence;)V",
      "acquire"
    },
    {"java.util.regex.Matcher#getTextLength()I", "acquire"},
    {"java.util.regex.Matcher#match(II)Z", "acquire"},
    {"java.util.regex.Matcher#matches()Z", "acquire"},
    {"java.util.regex.Matcher#reset()Ljava/util/regex/Matcher;", "acquire"},
    {"java.util.regex.Pattern#<init>(Ljava/lang/String;I)V", "acquire"},
    {"java.util.regex.Pattern#Range(II)Ljava/util/regex/Pattern$CharPredicate;", "acquire"},
    {"java.util.regex.Pattern#RemoveQEQuoting()V", "acquire"},
    {"java.util.regex.Pattern#Single(I)Ljava/util/regex/Pattern$BmpCharPredicate;", "acquire"},
    {"java.util.regex.Pattern#accept(ILjava/lang/String;)V", "acquire"},
    {"java.util.regex.Pattern#append(II)V", "acquire"},
    {"java.util.regex.Pattern#atom()Ljava/util/regex/Pattern$Node;", "acquire"},
    {
      "java.util.regex.Pattern#bitsOrSingle(Ljava/util/regex/Pattern$BitClass;I)Ljava/util/regex/Pattern$CharPredicate;",
      "acquire"
    },
    {"java.util.regex.Pattern#clazz(Z)Ljava/util/regex/Pattern$CharPredicate;", "acquire"},
    {
      "java.util.regex.Pattern#closure(Ljava/util/regex/Pattern$Node;)Ljava/util/regex/Pattern$Node;",
      "acquire"
    },
    {"java.util.regex.Pattern#compile()V", "acquire"},
    {"java.util.regex.Pattern#compile(Ljava/lang/String;)Ljava/util/regex/Pattern;", "acquire"},
    {"java.util.regex.Pattern#createGroup(Z)Ljava/util/regex/Pattern$Node;", "acquire"},
    {
      "java.util.regex.Pattern#curly(Ljava/util/regex/Pattern$Node;I)Ljava/util/regex/Pattern$Node;",
      "acquire"
    },
    {"java.util.regex.Pattern#escape(ZZZ)I", "acquire"},
    {
      "java.util.regex.Pattern#expr(Ljava/util/regex/Pattern$Node;)Ljava/util/regex/Pattern$Node;",
      "acquire"
    },
    {"java.util.regex.Pattern#group0()Ljava/util/regex/Pattern$Node;", "acquire"},
    {"java.util.regex.Pattern#has(I)Z", "acquire"},
    {"java.util.regex.Pattern#isSupplementary(I)Z", "acquire"},
    {"java.util.regex.Pattern#lambda$Single$0(II)Z", "acquire"},
    {"java.util.regex.Pattern#lambda$Single$7(II)Z", "acquire"},
    {
      "java.util.regex.Pattern#matcher(Ljava/lang/CharSequence;)Ljava/util/regex/Matcher;",
      "acquire"
    },
    {
      "java.util.regex.Pattern#newCharProperty(Ljava/util/regex/Pattern$CharPredicate;)Ljava/util/regex/Pattern$CharProperty;",
      "acquire"
    },
    {"java.util.regex.Pattern#next()I", "acquire"},
    {"java.util.regex.Pattern#nextEscaped()I", "acquire"},
    {"java.util.regex.Pattern#peek()I", "acquire"},
    {"java.util.regex.Pattern#qtype()Ljava/util/regex/Pattern$Qtype;", "acquire"},
    {
      "java.util.regex.Pattern#range(Ljava/util/regex/Pattern$BitClass;)Ljava/util/regex/Pattern$CharPredicate;",
      "acquire"
    },
    {"java.util.regex.Pattern#read()I", "acquire"},
    {
      "java.util.regex.Pattern#sequence(Ljava/util/regex/Pattern$Node;)Ljava/util/regex/Pattern$Node;",
      "acquire"
    },
    {"java.util.regex.Pattern#single(I)Ljava/util/regex/Pattern$CharPredicate;", "acquire"},
    {"java.util.regex.Pattern#skip()I", "acquire"},
    {
      "java.util.regex.Pattern#union(Ljava/util/regex/Pattern$CharPredicate;Ljava/util/regex/Pattern$CharPredicate;Z)Ljava/util/regex/Pattern$CharPredicate;",
      "acquire"
    },
    {"java.util.regex.Pattern#unread()V", "acquire"},
    {"java.util.regex.Pattern$BitClass#<init>()V", "acquire"},
    {"java.util.regex.Pattern$BitClass#add(II)Ljava/util/regex/Pattern$BitClass;", "acquire"},
    {
      "java.util.regex.Pattern$BmpCharPredicate#union(Ljava/util/regex/Pattern$CharPredicate;)Ljava/util/regex/Pattern$CharPredicate;",
      "acquire"
    },
    {
      "java.util.regex.Pattern$BmpCharProperty#<init>(Ljava/util/regex/Pattern$BmpCharPredicate;)V",
      "acquire"
    },
    {
      "java.util.regex.Pattern$BmpCharProperty#match(Ljava/util/regex/Matcher;ILjava/lang/CharSequence;)Z",
      "acquire"
    },
    {
      "java.util.regex.Pattern$BmpCharPropertyGreedy#<init>(Ljava/util/regex/Pattern$BmpCharProperty;I)V",
      "acquire"
    },
    {
      "java.util.regex.Pattern$CharProperty#<init>(Ljava/util/regex/Pattern$CharPredicate;)V",
      "acquire"
    },
    {"java.util.regex.Pattern$CharProperty#study(Ljava/util/regex/Pattern$TreeInfo;)Z", "acquire"},
    {
      "java.util.regex.Pattern$CharPropertyGreedy#<init>(Ljava/util/regex/Pattern$CharProperty;I)V",
      "acquire"
    },
    {
      "java.util.regex.Pattern$CharPropertyGreedy#study(Ljava/util/regex/Pattern$TreeInfo;)Z",
      "acquire"
    },
    {
      "java.util.regex.Pattern$Curly#<init>(Ljava/util/regex/Pattern$Node;IILjava/util/regex/Pattern$Qtype;)V",
      "acquire"
    },
    {
      "java.util.regex.Pattern$Curly#match(Ljava/util/regex/Matcher;ILjava/lang/CharSequence;)Z",
      "acquire"
    },
    {
      "java.util.regex.Pattern$Curly#match0(Ljava/util/regex/Matcher;IILjava/lang/CharSequence;)Z",
      "acquire"
    },
    {"java.util.regex.Pattern$Curly#study(Ljava/util/regex/Pattern$TreeInfo;)Z", "acquire"},
    {"java.util.regex.Pattern$GroupHead#<init>(I)V", "acquire"},
    {
      "java.util.regex.Pattern$GroupHead#match(Ljava/util/regex/Matcher;ILjava/lang/CharSequence;)Z",
      "acquire"
    },
    {"java.util.regex.Pattern$GroupTail#<init>(II)V", "acquire"},
    {
      "java.util.regex.Pattern$GroupTail#match(Ljava/util/regex/Matcher;ILjava/lang/CharSequence;)Z",
      "acquire"
    },
    {
      "java.util.regex.Pattern$LastNode#match(Ljava/util/regex/Matcher;ILjava/lang/CharSequence;)Z",
      "acquire"
    },
    {"java.util.regex.Pattern$Loop#<init>(II)V", "acquire"},
    {
      "java.util.regex.Pattern$Loop#match(Ljava/util/regex/Matcher;ILjava/lang/CharSequence;)Z",
      "acquire"
    },
    {
      "java.util.regex.Pattern$Loop#matchInit(Ljava/util/regex/Matcher;ILjava/lang/CharSequence;)Z",
      "acquire"
    },
    {"java.util.regex.Pattern$Loop#study(Ljava/util/regex/Pattern$TreeInfo;)Z", "acquire"},
    {"java.util.regex.Pattern$Node#<init>()V", "acquire"},
    {
      "java.util.regex.Pattern$Node#match(Ljava/util/regex/Matcher;ILjava/lang/CharSequence;)Z",
      "acquire"
    },
    {"java.util.regex.Pattern$Node#study(Ljava/util/regex/Pattern$TreeInfo;)Z", "acquire"},
    {"java.util.regex.Pattern$Prolog#<init>(Ljava/util/regex/Pattern$Loop;)V", "acquire"},
    {
      "java.util.regex.Pattern$Prolog#match(Ljava/util/regex/Matcher;ILjava/lang/CharSequence;)Z",
      "acquire"
    },
    {"java.util.regex.Pattern$Prolog#study(Ljava/util/regex/Pattern$TreeInfo;)Z", "acquire"},
    {"java.util.regex.Pattern$Start#<init>(Ljava/util/regex/Pattern$Node;)V", "acquire"},
    {"java.util.regex.Pattern$TreeInfo#<init>()V", "acquire"},
    {"java.util.regex.Pattern$TreeInfo#reset()V", "acquire"},
    {"java.util.zip.CRC32#<init>()V", "acquire"},
    {"java.util.zip.CRC32#getValue()J", "acquire"},
    {"java.util.zip.CRC32#update([BII)V", "acquire"},
    {"java.util.zip.CRC32#updateBytes(I[BII)I", "acquire"},
    {"java.util.zip.CRC32#updateBytesCheck([BII)V", "acquire"},
    {"java.util.zip.Checksum#update([B)V", "acquire"},
    {"java.util.zip.Inflater#ensureOpen()V", "acquire"},
    {"java.util.zip.Inflater#finished()Z", "acquire"},
    {"java.util.zip.Inflater#hasPendingOutput()Z", "acquire"},
    {"java.util.zip.Inflater#inflate([BII)I", "acquire"},
    {"java.util.zip.Inflater#inflateBytesBytes(J[BII[BII)J", "acquire"},
    {"java.util.zip.Inflater#needsDictionary()Z", "acquire"},
    {"java.util.zip.Inflater#needsInput()Z", "acquire"},
    {"java.util.zip.Inflater#reset()V", "acquire"},
    {"java.util.zip.Inflater#reset(J)V", "acquire"},
    {"java.util.zip.Inflater#setInput([BII)V", "acquire"},
    {"java.util.zip.Inflater$InflaterZStreamRef#address()J", "acquire"},
    {
      "java.util.zip.InflaterInputStream#<init>(Ljava/io/InputStream;Ljava/util/zip/Inflater;I)V",
      "acquire"
    },
    {"java.util.zip.InflaterInputStream#close()V", "acquire"},
    {"java.util.zip.InflaterInputStream#ensureOpen()V", "acquire"},
    {"java.util.zip.InflaterInputStream#read([BII)I", "acquire"},
    {"java.util.zip.ZipCoder#hash(Ljava/lang/String;)I", "acquire"},
    {"java.util.zip.ZipCoder$UTF8ZipCoder#compare(Ljava/lang/String;[BIIZ)B", "acquire"},
    {"java.util.zip.ZipCoder$UTF8ZipCoder#hasTrailingSlash([BI)Z", "weave"},
    {"java.util.zip.ZipCoder$UTF8ZipCoder#isUTF8()Z", "acquire"},
    {"java.util.zip.ZipCoder$UTF8ZipCoder#toString([BII)Ljava/lang/String;", "weave"},
    {"java.util.zip.ZipEntry#<init>(Ljava/lang/String;)V", "acquire"},
    {"java.util.zip.ZipEntry#getCrc()J", "acquire"},
    {"java.util.zip.ZipEntry#getSize()J", "acquire"},
    {"java.util.zip.ZipEntry#isCENHeaderValid(Ljava/lang/String;[BLjava/lang/String;)Z", "acquire"},
    {"java.util.zip.ZipFile#ensureOpen()V", "acquire"},
    {"java.util.zip.ZipFile#ensureOpenOrZipException()V", "acquire"},
    {"java.util.zip.ZipFile#getEntry(Ljava/lang/String;)Ljava/util/zip/ZipEntry;", "acquire"},
    {
      "java.util.zip.ZipFile#getInputStream(Ljava/util/zip/ZipEntry;)Ljava/io/InputStream;",
      "acquire"
    },
    {"java.util.zip.ZipFile#getZipEntry(Ljava/lang/String;I)Ljava/util/zip/ZipEntry;", "acquire"},
    {
      "java.util.zip.ZipFile#zipCoderFor([BILjava/util/zip/ZipCoder;)Ljava/util/zip/ZipCoder;",
      "acquire"
    },
    {"java.util.zip.ZipFile$CleanableResource#getInflater()Ljava/util/zip/Inflater;", "acquire"},
    {
      "java.util.zip.ZipFile$CleanableResource#releaseInflater(Ljava/util/zip/Inflater;)V",
      "acquire"
    },
    {"java.util.zip.ZipFile$EntryPos#<init>(Ljava/lang/String;I)V", "acquire"},
    {
      "java.util.zip.ZipFile$InflaterCleanupAction#<init>(Ljava/util/zip/Inflater;Ljava/util/zip/ZipFile$CleanableResource;)V",
      "acquire"
    },
    {"java.util.zip.ZipFile$InflaterCleanupAction#run()V", "acquire"},
    {"java.util.zip.ZipFile$Source#getEntryHash(I)I", "acquire"},
    {"java.util.zip.ZipFile$Source#getEntryNext(I)I", "acquire"},
    {"java.util.zip.ZipFile$Source#getEntryPos(I)I", "acquire"},
    {"java.util.zip.ZipFile$Source#getEntryPos(Ljava/lang/String;Z)I", "weave"},
    {
      "java.util.zip.ZipFile$Source#getEntryPos(Ljava/lang/String;ZLjava/util/zip/ZipCoder;)Ljava/util/zip/ZipFile$EntryPos;",
      "acquire"
    },
    {"java.util.zip.ZipFile$Source#readAt([BIIJ)I", "acquire"},
    {"java.util.zip.ZipFile$Source#readFullyAt([BIIJ)I", "acquire"},
    {"java.util.zip.ZipFile$Source#zipCoderForPos(I)Ljava/util/zip/ZipCoder;", "weave"},
    {
      "java.util.zip.ZipFile$ZipFileInflaterInputStream#<init>(Ljava/util/zip/ZipFile;Ljava/util/zip/ZipFile$ZipFileInputStream;Ljava/util/zip/ZipFile$CleanableResource;I)V",
      "acquire"
    },
    {
      "java.util.zip.ZipFile$ZipFileInflaterInputStream#<init>(Ljava/util/zip/ZipFile;Ljava/util/zip/ZipFile$ZipFileInputStream;Ljava/util/zip/ZipFile$CleanableResource;Ljava/util/zip/Inflater;I)V",
      "acquire"
    },
    {"java.util.zip.ZipFile$ZipFileInflaterInputStream#close()V", "acquire"},
    {"java.util.zip.ZipFile$ZipFileInflaterInputStream#fill()V", "acquire"},
    {"java.util.zip.ZipFile$ZipFileInputStream#<init>(Ljava/util/zip/ZipFile;[BI)V", "acquire"},
    {"java.util.zip.ZipFile$ZipFileInputStream#close()V", "acquire"},
    {"java.util.zip.ZipFile$ZipFileInputStream#initDataOffset()J", "acquire"},
    {"java.util.zip.ZipFile$ZipFileInputStream#read([BII)I", "acquire"},
    {"java.util.zip.ZipUtils#CENATX_PERMS([BI)I", "acquire"},
    {"java.util.zip.ZipUtils#CENCOM([BI)I", "acquire"},
    {"java.util.zip.ZipUtils#CENCRC([BI)J", "acquire"},
    {"java.util.zip.ZipUtils#CENEXT([BI)I", "acquire"},
    {"java.util.zip.ZipUtils#CENFLG([BI)I", "acquire"},
    {"java.util.zip.ZipUtils#CENHOW([BI)I", "acquire"},
    {"java.util.zip.ZipUtils#CENLEN([BI)J", "acquire"},
    {"java.util.zip.ZipUtils#CENNAM([BI)I", "acquire"},
    {"java.util.zip.ZipUtils#CENOFF([BI)J", "acquire"},
    {"java.util.zip.ZipUtils#CENSIZ([BI)J", "acquire"},
    {"java.util.zip.ZipUtils#CENTIM([BI)J", "acquire"},
    {"java.util.zip.ZipUtils#CENVEM_FA([BI)I", "acquire"},
    {"java.util.zip.ZipUtils#CH([BI)I", "weave"},
    {"java.util.zip.ZipUtils#LG([BI)J", "weave"},
    {"java.util.zip.ZipUtils#LOCEXT([B)I", "acquire"},
    {"java.util.zip.ZipUtils#LOCNAM([B)I", "acquire"},
    {"java.util.zip.ZipUtils#LOCSIG([B)J", "acquire"},
    {"java.util.zip.ZipUtils#SH([BI)I", "weave"},
    {"java.util.zip.ZipUtils#get16([BI)I", "acquire"},
    {"java.util.zip.ZipUtils#get32([BI)J", "acquire"},
    {"java.util.zip.ZipUtils#getBufferArray(Ljava/nio/ByteBuffer;)[B", "weave"},
    {"java.util.zip.ZipUtils#getBufferOffset(Ljava/nio/ByteBuffer;)I", "weave"},
    {
      "jdk.internal.access.SharedSecrets#getJavaLangAccess()Ljdk/internal/access/JavaLangAccess;",
      "acquire"
    },
    {
      "jdk.internal.access.SharedSecrets#javaUtilJarAccess()Ljdk/internal/access/JavaUtilJarAccess;",
      "acquire"
    },
    {
      "jdk.internal.access.SharedSecrets#setJavaNetInetAddressAccess(Ljdk/internal/access/JavaNetInetAddressAccess;)V",
      "acquire"
    },
    {
      "jdk.internal.access.SharedSecrets#setJavaSecurityPropertiesAccess(Ljdk/internal/access/JavaSecurityPropertiesAccess;)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AbstractAttributeMapper#allowMultiple()Z", "acquire"},
    {"jdk.internal.classfile.impl.AbstractAttributeMapper#name()Ljava/lang/String;", "acquire"},
    {
      "jdk.internal.classfile.impl.AbstractAttributeMapper#writeAttribute(Ljava/lang/classfile/BufWriter;Ljava/lang/classfile/Attribute;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractAttributeMapper$RuntimeVisibleAnnotationsMapper#writeBody(Ljava/lang/classfile/BufWriter;Ljava/lang/classfile/Attribute;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractAttributeMapper$RuntimeVisibleAnnotationsMapper#writeBody(Ljava/lang/classfile/BufWriter;Ljava/lang/classfile/attribute/RuntimeVisibleAnnotationsAttribute;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractAttributeMapper$SourceFileMapper#writeBody(Ljava/lang/classfile/BufWriter;Ljava/lang/classfile/Attribute;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractAttributeMapper$SourceFileMapper#writeBody(Ljava/lang/classfile/BufWriter;Ljava/lang/classfile/attribute/SourceFileAttribute;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractDirectBuilder#<init>(Ljdk/internal/classfile/impl/SplitConstantPool;Ljdk/internal/classfile/impl/ClassFileImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractDirectBuilder#constantPool()Ljdk/internal/classfile/impl/SplitConstantPool;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractDirectBuilder#setOriginal(Ljava/lang/Object;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractDirectBuilder#writeAttribute(Ljava/lang/classfile/Attribute;)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AbstractElement#<init>()V", "acquire"},
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry#<init>(Ljava/lang/classfile/constantpool/ConstantPool;II)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry#constantPool()Ljava/lang/classfile/constantpool/ConstantPool;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AbstractPoolEntry#hash1(II)I", "acquire"},
    {"jdk.internal.classfile.impl.AbstractPoolEntry#hash2(III)I", "acquire"},
    {"jdk.internal.classfile.impl.AbstractPoolEntry#hashClassFromDescriptor(I)I", "acquire"},
    {"jdk.internal.classfile.impl.AbstractPoolEntry#hashCode()I", "acquire"},
    {"jdk.internal.classfile.impl.AbstractPoolEntry#hashString(I)I", "acquire"},
    {"jdk.internal.classfile.impl.AbstractPoolEntry#index()I", "acquire"},
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry#maybeClone(Ljava/lang/classfile/constantpool/ConstantPoolBuilder;Ljava/lang/classfile/constantpool/PoolEntry;)Ljava/lang/classfile/constantpool/PoolEntry;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AbstractPoolEntry#width()I", "acquire"},
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$AbstractMemberRefEntry#<init>(Ljava/lang/classfile/constantpool/ConstantPool;IILjdk/internal/classfile/impl/AbstractPoolEntry$ClassEntryImpl;Ljdk/internal/classfile/impl/AbstractPoolEntry$NameAndTypeEntryImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$AbstractMemberRefEntry#nameAndType()Ljava/lang/classfile/constantpool/NameAndTypeEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$AbstractMemberRefEntry#nameAndType()Ljdk/internal/classfile/impl/AbstractPoolEntry$NameAndTypeEntryImpl;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$AbstractNamedEntry#<init>(Ljava/lang/classfile/constantpool/ConstantPool;IILjdk/internal/classfile/impl/AbstractPoolEntry$Utf8EntryImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$AbstractRefEntry#<init>(Ljava/lang/classfile/constantpool/ConstantPool;IILjava/lang/classfile/constantpool/PoolEntry;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$AbstractRefEntry#writeTo(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$AbstractRefsEntry#<init>(Ljava/lang/classfile/constantpool/ConstantPool;IILjava/lang/classfile/constantpool/PoolEntry;Ljava/lang/classfile/constantpool/PoolEntry;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$AbstractRefsEntry#writeTo(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$ClassEntryImpl#<init>(Ljava/lang/classfile/constantpool/ConstantPool;ILjdk/internal/classfile/impl/AbstractPoolEntry$Utf8EntryImpl;ILjava/lang/constant/ClassDesc;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$ClassEntryImpl#asSymbol()Ljava/lang/constant/ClassDesc;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AbstractPoolEntry$ClassEntryImpl#hashCode()I", "acquire"},
    {"jdk.internal.classfile.impl.AbstractPoolEntry$ClassEntryImpl#tag()I", "acquire"},
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$FieldRefEntryImpl#<init>(Ljava/lang/classfile/constantpool/ConstantPool;ILjdk/internal/classfile/impl/AbstractPoolEntry$ClassEntryImpl;Ljdk/internal/classfile/impl/AbstractPoolEntry$NameAndTypeEntryImpl;)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AbstractPoolEntry$FieldRefEntryImpl#tag()I", "acquire"},
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$MethodRefEntryImpl#<init>(Ljava/lang/classfile/constantpool/ConstantPool;ILjdk/internal/classfile/impl/AbstractPoolEntry$ClassEntryImpl;Ljdk/internal/classfile/impl/AbstractPoolEntry$NameAndTypeEntryImpl;)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AbstractPoolEntry$MethodRefEntryImpl#tag()I", "acquire"},
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$NameAndTypeEntryImpl#<init>(Ljava/lang/classfile/constantpool/ConstantPool;ILjdk/internal/classfile/impl/AbstractPoolEntry$Utf8EntryImpl;Ljdk/internal/classfile/impl/AbstractPoolEntry$Utf8EntryImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$NameAndTypeEntryImpl#name()Ljava/lang/classfile/constantpool/Utf8Entry;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AbstractPoolEntry$NameAndTypeEntryImpl#tag()I", "acquire"},
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$NameAndTypeEntryImpl#type()Ljava/lang/classfile/constantpool/Utf8Entry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#<init>(Ljava/lang/classfile/constantpool/ConstantPool;ILjava/lang/String;I)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#clone(Ljava/lang/classfile/constantpool/ConstantPoolBuilder;)Ljava/lang/classfile/constantpool/PoolEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#clone(Ljava/lang/classfile/constantpool/ConstantPoolBuilder;)Ljdk/internal/classfile/impl/AbstractPoolEntry$Utf8EntryImpl;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#contentHash()I", "acquire"},
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#equalsString(Ljava/lang/String;)Z",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#fieldTypeSymbol()Ljava/lang/constant/ClassDesc;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#hashCode()I", "acquire"},
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#methodTypeSymbol()Ljava/lang/constant/MethodTypeDesc;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#stringValue()Ljava/lang/String;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#tag()I", "acquire"},
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#toString()Ljava/lang/String;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AbstractPoolEntry$Utf8EntryImpl#writeTo(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AnnotationImpl#className()Ljava/lang/classfile/constantpool/Utf8Entry;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AnnotationImpl#elements()Ljava/util/List;", "acquire"},
    {
      "jdk.internal.classfile.impl.AnnotationReader#writeAnnotation(Ljdk/internal/classfile/impl/BufWriterImpl;Ljava/lang/classfile/Annotation;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AnnotationReader#writeAnnotations(Ljava/lang/classfile/BufWriter;Ljava/util/List;)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.AttributeHolder#<init>()V", "acquire"},
    {
      "jdk.internal.classfile.impl.AttributeHolder#withAttribute(Ljava/lang/classfile/Attribute;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.AttributeHolder#writeTo(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.BufWriterImpl#<init>(Ljava/lang/classfile/constantpool/ConstantPoolBuilder;Ljdk/internal/classfile/impl/ClassFileImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.BufWriterImpl#<init>(Ljava/lang/classfile/constantpool/ConstantPoolBuilder;Ljdk/internal/classfile/impl/ClassFileImpl;I)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.BufWriterImpl#<init>(Ljava/lang/classfile/constantpool/ConstantPoolBuilder;Ljdk/internal/classfile/impl/ClassFileImpl;ILjava/lang/classfile/constantpool/ClassEntry;I)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.BufWriterImpl#bytecodeView()Ljdk/internal/classfile/impl/RawBytecodeHelper$CodeRange;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.BufWriterImpl#constantPool()Ljava/lang/classfile/constantpool/ConstantPoolBuilder;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.BufWriterImpl#copyTo([BI)V", "acquire"},
    {
      "jdk.internal.classfile.impl.BufWriterImpl#cpIndex(Ljava/lang/classfile/constantpool/PoolEntry;)I",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.BufWriterImpl#cpIndexOrZero(Ljava/lang/classfile/constantpool/PoolEntry;)I",
      "acquire"
    },
    {"jdk.internal.classfile.impl.BufWriterImpl#getMajorVersion()I", "acquire"},
    {"jdk.internal.classfile.impl.BufWriterImpl#grow(I)V", "acquire"},
    {
      "jdk.internal.classfile.impl.BufWriterImpl#join(Ljdk/internal/classfile/impl/BufWriterImpl;Ljdk/internal/classfile/impl/BufWriterImpl;)[B",
      "acquire"
    },
    {"jdk.internal.classfile.impl.BufWriterImpl#patchInt(II)V", "acquire"},
    {"jdk.internal.classfile.impl.BufWriterImpl#reserveSpace(I)V", "acquire"},
    {
      "jdk.internal.classfile.impl.BufWriterImpl#setLabelContext(Ljdk/internal/classfile/impl/LabelContext;Z)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.BufWriterImpl#size()I", "acquire"},
    {"jdk.internal.classfile.impl.BufWriterImpl#skip(I)I", "acquire"},
    {
      "jdk.internal.classfile.impl.BufWriterImpl#thisClass()Ljava/lang/classfile/constantpool/ClassEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.BufWriterImpl#writeBytes(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.BufWriterImpl#writeBytes([BII)V", "acquire"},
    {
      "jdk.internal.classfile.impl.BufWriterImpl#writeIndex(ILjava/lang/classfile/constantpool/PoolEntry;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.BufWriterImpl#writeIndex(Ljava/lang/classfile/constantpool/PoolEntry;)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.BufWriterImpl#writeInt(I)V", "acquire"},
    {"jdk.internal.classfile.impl.BufWriterImpl#writeU1(I)V", "acquire"},
    {"jdk.internal.classfile.impl.BufWriterImpl#writeU1U1(II)V", "acquire"},
    {"jdk.internal.classfile.impl.BufWriterImpl#writeU1U2(II)V", "acquire"},
    {"jdk.internal.classfile.impl.BufWriterImpl#writeU1U2U2(III)V", "acquire"},
    {"jdk.internal.classfile.impl.BufWriterImpl#writeU2(I)V", "acquire"},
    {"jdk.internal.classfile.impl.BufWriterImpl#writeU2U2(II)V", "acquire"},
    {"jdk.internal.classfile.impl.BufWriterImpl#writeU2U2U2(III)V", "acquire"},
    {"jdk.internal.classfile.impl.BufWriterImpl#writeUtfEntry(Ljava/lang/String;)V", "acquire"},
    {
      "jdk.internal.classfile.impl.BytecodeHelpers#ldcOpcode(Ljava/lang/classfile/constantpool/LoadableConstantEntry;)Ljava/lang/classfile/Opcode;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.BytecodeHelpers#returnBytecode(Ljava/lang/classfile/TypeKind;)I",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.ClassFileImpl#build(Ljava/lang/classfile/constantpool/ClassEntry;Ljava/lang/classfile/constantpool/ConstantPoolBuilder;Ljava/util/function/Consumer;)[B",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.ClassFileImpl#classHierarchyResolver()Ljava/lang/classfile/ClassHierarchyResolver;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.ClassFileImpl#dropDeadLabels()Z", "acquire"},
    {"jdk.internal.classfile.impl.ClassFileImpl#fixShortJumps()Z", "acquire"},
    {"jdk.internal.classfile.impl.ClassFileImpl#passDebugElements()Z", "acquire"},
    {"jdk.internal.classfile.impl.ClassFileImpl#patchDeadCode()Z", "acquire"},
    {"jdk.internal.classfile.impl.ClassFileImpl#stackMapsWhenRequired()Z", "acquire"},
    {
      "jdk.internal.classfile.impl.ClassHierarchyImpl#<init>(Ljava/lang/classfile/ClassHierarchyResolver;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.ClassHierarchyImpl$CachedClassHierarchyResolver#<init>(Ljava/lang/classfile/ClassHierarchyResolver;Ljava/util/Map;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.ClassHierarchyImpl$CachedClassHierarchyResolver$1#<init>(Ljdk/internal/classfile/impl/ClassHierarchyImpl$CachedClassHierarchyResolver;Ljava/lang/classfile/ClassHierarchyResolver;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.ClassReaderImpl#checkType(Ljava/lang/classfile/constantpool/PoolEntry;ILjava/lang/Class;)Ljava/lang/classfile/constantpool/PoolEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectClassBuilder#<init>(Ljdk/internal/classfile/impl/SplitConstantPool;Ljdk/internal/classfile/impl/ClassFileImpl;Ljava/lang/classfile/constantpool/ClassEntry;)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.DirectClassBuilder#build()[B", "acquire"},
    {
      "jdk.internal.classfile.impl.DirectClassBuilder#constantPool()Ljava/lang/classfile/constantpool/ConstantPoolBuilder;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.DirectClassBuilder#setFlags(I)V", "acquire"},
    {
      "jdk.internal.classfile.impl.DirectClassBuilder#setSuperclass(Ljava/lang/classfile/constantpool/ClassEntry;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectClassBuilder#with(Ljava/lang/classfile/ClassElement;)Ljava/lang/classfile/ClassBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectClassBuilder#with(Ljava/lang/classfile/ClassFileElement;)Ljava/lang/classfile/ClassFileBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectClassBuilder#withField(Ljava/lang/classfile/constantpool/Utf8Entry;Ljava/lang/classfile/constantpool/Utf8Entry;I)Ljava/lang/classfile/ClassBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectClassBuilder#withField(Ljdk/internal/classfile/impl/Util$Writable;)Ljava/lang/classfile/ClassBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectClassBuilder#withFlags(I)Ljava/lang/classfile/ClassBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectClassBuilder#withMethod(Ljava/lang/classfile/constantpool/Utf8Entry;Ljava/lang/classfile/constantpool/Utf8Entry;ILjava/util/function/Consumer;)Ljava/lang/classfile/ClassBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectClassBuilder#withMethod(Ljdk/internal/classfile/impl/Util$Writable;)Ljava/lang/classfile/ClassBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#<init>(Ljdk/internal/classfile/impl/MethodInfo;Ljdk/internal/classfile/impl/SplitConstantPool;Ljdk/internal/classfile/impl/ClassFileImpl;Ljava/lang/classfile/CodeModel;Z)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#aconst_null()Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#aload(I)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#astore(I)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#build(Ljdk/internal/classfile/impl/MethodInfo;Ljava/util/function/Consumer;Ljdk/internal/classfile/impl/SplitConstantPool;Ljdk/internal/classfile/impl/ClassFileImpl;Ljava/lang/classfile/CodeModel;)Ljdk/internal/classfile/impl/UnboundAttribute;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.DirectCodeBuilder#buildContent()V", "acquire"},
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#checkcast(Ljava/lang/classfile/constantpool/ClassEntry;)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#constantPool()Ljava/lang/classfile/constantpool/ConstantPoolBuilder;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.DirectCodeBuilder#curPc()I", "acquire"},
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#dup()Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#fieldAccess(Ljava/lang/classfile/Opcode;Ljava/lang/classfile/constantpool/FieldRefEntry;)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#iload(I)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#invoke(Ljava/lang/classfile/Opcode;Ljava/lang/classfile/constantpool/MemberRefEntry;)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#invokestatic(Ljava/lang/constant/ClassDesc;Ljava/lang/String;Ljava/lang/constant/MethodTypeDesc;)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#istore(I)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#ldc(Ljava/lang/classfile/constantpool/LoadableConstantEntry;)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#loadLocal(Ljava/lang/classfile/TypeKind;I)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.DirectCodeBuilder#localAccess(II)V", "acquire"},
    {"jdk.internal.classfile.impl.DirectCodeBuilder#processDeferredLabels()V", "acquire"},
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#return_()Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#return_(Ljava/lang/classfile/TypeKind;)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#setLabelTarget(Ljava/lang/classfile/Label;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#setLabelTarget(Ljava/lang/classfile/Label;I)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#storeLocal(Ljava/lang/classfile/TypeKind;I)Ljava/lang/classfile/CodeBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#writeDirectLoadConstant(Ljava/lang/classfile/Opcode;Ljava/lang/classfile/constantpool/LoadableConstantEntry;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#writeExceptionHandlers(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder#writeInvokeNormal(Ljava/lang/classfile/Opcode;Ljava/lang/classfile/constantpool/MemberRefEntry;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder$4#<init>(Ljdk/internal/classfile/impl/DirectCodeBuilder;Ljava/lang/classfile/AttributeMapper;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder$4#generateStackMaps(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder$4#tryGenerateStackMaps(ZLjdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectCodeBuilder$4#writeBody(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectFieldBuilder#<init>(Ljdk/internal/classfile/impl/SplitConstantPool;Ljdk/internal/classfile/impl/ClassFileImpl;Ljava/lang/classfile/constantpool/Utf8Entry;Ljava/lang/classfile/constantpool/Utf8Entry;ILjava/lang/classfile/FieldModel;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectFieldBuilder#writeTo(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectMethodBuilder#<init>(Ljdk/internal/classfile/impl/SplitConstantPool;Ljdk/internal/classfile/impl/ClassFileImpl;Ljava/lang/classfile/constantpool/Utf8Entry;Ljava/lang/classfile/constantpool/Utf8Entry;ILjava/lang/classfile/MethodModel;)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.DirectMethodBuilder#methodFlags()I", "acquire"},
    {
      "jdk.internal.classfile.impl.DirectMethodBuilder#methodName()Ljava/lang/classfile/constantpool/Utf8Entry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectMethodBuilder#methodType()Ljava/lang/classfile/constantpool/Utf8Entry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectMethodBuilder#methodTypeSymbol()Ljava/lang/constant/MethodTypeDesc;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectMethodBuilder#run(Ljava/util/function/Consumer;)Ljdk/internal/classfile/impl/DirectMethodBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectMethodBuilder#with(Ljava/lang/classfile/ClassFileElement;)Ljava/lang/classfile/ClassFileBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectMethodBuilder#with(Ljava/lang/classfile/MethodElement;)Ljava/lang/classfile/MethodBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectMethodBuilder#withCode(Ljava/lang/classfile/CodeModel;Ljava/util/function/Consumer;)Ljava/lang/classfile/MethodBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectMethodBuilder#withCode(Ljava/util/function/Consumer;)Ljava/lang/classfile/MethodBuilder;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.DirectMethodBuilder#writeTo(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.EntryMap#<init>(IF)V", "acquire"},
    {"jdk.internal.classfile.impl.EntryMap#arraySize(IF)I", "acquire"},
    {"jdk.internal.classfile.impl.EntryMap#firstToken(I)I", "acquire"},
    {"jdk.internal.classfile.impl.EntryMap#getIndexByToken(I)I", "acquire"},
    {"jdk.internal.classfile.impl.EntryMap#nextPowerOfTwo(J)J", "acquire"},
    {"jdk.internal.classfile.impl.EntryMap#put(II)V", "acquire"},
    {
      "jdk.internal.classfile.impl.LabelImpl#<init>(Ljdk/internal/classfile/impl/LabelContext;I)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.LabelImpl#getBCI()I", "acquire"},
    {
      "jdk.internal.classfile.impl.LabelImpl#labelContext()Ljdk/internal/classfile/impl/LabelContext;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.LabelImpl#setBCI(I)V", "acquire"},
    {
      "jdk.internal.classfile.impl.RawBytecodeHelper#<init>(Ljdk/internal/classfile/impl/RawBytecodeHelper$CodeRange;)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.RawBytecodeHelper#bci()I", "acquire"},
    {"jdk.internal.classfile.impl.RawBytecodeHelper#endBci()I", "acquire"},
    {"jdk.internal.classfile.impl.RawBytecodeHelper#getIndex()I", "acquire"},
    {"jdk.internal.classfile.impl.RawBytecodeHelper#getIndexU1()I", "acquire"},
    {"jdk.internal.classfile.impl.RawBytecodeHelper#getIndexU2()I", "acquire"},
    {"jdk.internal.classfile.impl.RawBytecodeHelper#getU1Unchecked(I)I", "acquire"},
    {"jdk.internal.classfile.impl.RawBytecodeHelper#getU2Unchecked(I)I", "acquire"},
    {"jdk.internal.classfile.impl.RawBytecodeHelper#isStoreIntoLocal(I)Z", "acquire"},
    {"jdk.internal.classfile.impl.RawBytecodeHelper#isWide()Z", "acquire"},
    {"jdk.internal.classfile.impl.RawBytecodeHelper#next()Z", "acquire"},
    {
      "jdk.internal.classfile.impl.RawBytecodeHelper#of([BI)Ljdk/internal/classfile/impl/RawBytecodeHelper$CodeRange;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.RawBytecodeHelper#opcode()I", "acquire"},
    {"jdk.internal.classfile.impl.RawBytecodeHelper$CodeRange#<init>([BI)V", "acquire"},
    {"jdk.internal.classfile.impl.RawBytecodeHelper$CodeRange#length()I", "acquire"},
    {
      "jdk.internal.classfile.impl.RawBytecodeHelper$CodeRange#start()Ljdk/internal/classfile/impl/RawBytecodeHelper;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.SplitConstantPool#<init>()V", "acquire"},
    {
      "jdk.internal.classfile.impl.SplitConstantPool#canWriteDirect(Ljava/lang/classfile/constantpool/ConstantPool;)Z",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#classEntry(Ljava/lang/constant/ClassDesc;)Ljava/lang/classfile/constantpool/ClassEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#classEntryForClassOrInterface(Ljava/lang/constant/ClassDesc;)Ljdk/internal/classfile/impl/AbstractPoolEntry$ClassEntryImpl;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#entryByIndex(I)Ljava/lang/classfile/constantpool/PoolEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#entryByIndex(ILjava/lang/Class;)Ljava/lang/classfile/constantpool/PoolEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#fieldRefEntry(Ljava/lang/classfile/constantpool/ClassEntry;Ljava/lang/classfile/constantpool/NameAndTypeEntry;)Ljava/lang/classfile/constantpool/FieldRefEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#findEntry(ILjdk/internal/classfile/impl/AbstractPoolEntry;Ljdk/internal/classfile/impl/AbstractPoolEntry;)Ljdk/internal/classfile/impl/AbstractPoolEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#internalAdd(Ljava/lang/classfile/constantpool/PoolEntry;)Ljava/lang/classfile/constantpool/PoolEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#internalAdd(Ljava/lang/classfile/constantpool/PoolEntry;I)Ljava/lang/classfile/constantpool/PoolEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#map()Ljdk/internal/classfile/impl/EntryMap;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#maybeCloneUtf8Entry(Ljava/lang/classfile/constantpool/Utf8Entry;)Ljdk/internal/classfile/impl/AbstractPoolEntry$Utf8EntryImpl;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#methodRefEntry(Ljava/lang/classfile/constantpool/ClassEntry;Ljava/lang/classfile/constantpool/NameAndTypeEntry;)Ljava/lang/classfile/constantpool/MethodRefEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#nameAndTypeEntry(Ljava/lang/classfile/constantpool/Utf8Entry;Ljava/lang/classfile/constantpool/Utf8Entry;)Ljava/lang/classfile/constantpool/NameAndTypeEntry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#nameAndTypeEntry(Ljava/lang/classfile/constantpool/Utf8Entry;Ljava/lang/classfile/constantpool/Utf8Entry;)Ljdk/internal/classfile/impl/AbstractPoolEntry$NameAndTypeEntryImpl;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.SplitConstantPool#size()I", "acquire"},
    {
      "jdk.internal.classfile.impl.SplitConstantPool#tryFindClassOrInterface(ILjava/lang/constant/ClassDesc;)Ljdk/internal/classfile/impl/AbstractPoolEntry$ClassEntryImpl;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#tryFindUtf8(ILjava/lang/String;)Ljdk/internal/classfile/impl/AbstractPoolEntry$Utf8EntryImpl;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#utf8Entry(Ljava/lang/String;)Ljava/lang/classfile/constantpool/Utf8Entry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#utf8Entry(Ljava/lang/String;)Ljdk/internal/classfile/impl/AbstractPoolEntry$Utf8EntryImpl;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#utf8Entry(Ljava/lang/constant/ClassDesc;)Ljava/lang/classfile/constantpool/Utf8Entry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#utf8Entry(Ljava/lang/constant/ClassDesc;)Ljdk/internal/classfile/impl/AbstractPoolEntry$Utf8EntryImpl;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#utf8Entry(Ljava/lang/constant/MethodTypeDesc;)Ljava/lang/classfile/constantpool/Utf8Entry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#writeBootstrapMethods(Ljdk/internal/classfile/impl/BufWriterImpl;)Z",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SplitConstantPool#writeTo(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator#<init>(Ljdk/internal/classfile/impl/LabelContext;Ljava/lang/constant/ClassDesc;Ljava/lang/String;Ljava/lang/constant/MethodTypeDesc;ZLjdk/internal/classfile/impl/RawBytecodeHelper$CodeRange;Ljdk/internal/classfile/impl/SplitConstantPool;Ljdk/internal/classfile/impl/ClassFileImpl;Ljava/util/List;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator#cpIndexToType(ILjava/lang/classfile/constantpool/ConstantPoolBuilder;)Ljdk/internal/classfile/impl/StackMapGenerator$Type;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.StackMapGenerator#detectFrames()V", "acquire"},
    {"jdk.internal.classfile.impl.StackMapGenerator#generate()V", "acquire"},
    {"jdk.internal.classfile.impl.StackMapGenerator#isAnyFrameDirty()Z", "acquire"},
    {"jdk.internal.classfile.impl.StackMapGenerator#maxLocals()I", "acquire"},
    {"jdk.internal.classfile.impl.StackMapGenerator#maxStack()I", "acquire"},
    {
      "jdk.internal.classfile.impl.StackMapGenerator#of(Ljdk/internal/classfile/impl/DirectCodeBuilder;Ljdk/internal/classfile/impl/BufWriterImpl;)Ljdk/internal/classfile/impl/StackMapGenerator;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator#processBlock(Ljdk/internal/classfile/impl/RawBytecodeHelper;)Z",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator#processFieldInstructions(Ljdk/internal/classfile/impl/RawBytecodeHelper;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator#processInvokeInstructions(Ljdk/internal/classfile/impl/RawBytecodeHelper;ZZ)Z",
      "acquire"
    },
    {"jdk.internal.classfile.impl.StackMapGenerator#processLdc(I)V", "acquire"},
    {"jdk.internal.classfile.impl.StackMapGenerator#processMethod()V", "acquire"},
    {
      "jdk.internal.classfile.impl.StackMapGenerator#stackMapTableAttribute()Ljava/lang/classfile/Attribute;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#<init>(Ljdk/internal/classfile/impl/StackMapGenerator;IIII[Ljdk/internal/classfile/impl/StackMapGenerator$Type;[Ljdk/internal/classfile/impl/StackMapGenerator$Type;Ljdk/internal/classfile/impl/ClassHierarchyImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#<init>(Ljdk/internal/classfile/impl/StackMapGenerator;Ljdk/internal/classfile/impl/ClassHierarchyImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#checkLocal(I)Ljdk/internal/classfile/impl/StackMapGenerator$Frame;",
      "acquire"
    },
    {"jdk.internal.classfile.impl.StackMapGenerator$Frame#checkStack(I)V", "acquire"},
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#decStack(I)Ljdk/internal/classfile/impl/StackMapGenerator$Frame;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#getLocal(I)Ljdk/internal/classfile/impl/StackMapGenerator$Type;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#getLocalRawInternal(I)Ljdk/internal/classfile/impl/StackMapGenerator$Type;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#popStack()Ljdk/internal/classfile/impl/StackMapGenerator$Type;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#pushStack(Ljava/lang/constant/ClassDesc;)Ljdk/internal/classfile/impl/StackMapGenerator$Frame;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#pushStack(Ljdk/internal/classfile/impl/StackMapGenerator$Type;)Ljdk/internal/classfile/impl/StackMapGenerator$Frame;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#setLocal(ILjdk/internal/classfile/impl/StackMapGenerator$Type;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#setLocalRawInternal(ILjdk/internal/classfile/impl/StackMapGenerator$Type;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Frame#setLocalsFromArg(Ljava/lang/String;Ljava/lang/constant/MethodTypeDesc;ZLjdk/internal/classfile/impl/StackMapGenerator$Type;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Type#<init>(ILjava/lang/constant/ClassDesc;I)V",
      "acquire"
    },
    {"jdk.internal.classfile.impl.StackMapGenerator$Type#equals(Ljava/lang/Object;)Z", "acquire"},
    {
      "jdk.internal.classfile.impl.StackMapGenerator$Type#referenceType(Ljava/lang/constant/ClassDesc;)Ljdk/internal/classfile/impl/StackMapGenerator$Type;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SuperclassImpl#<init>(Ljava/lang/classfile/constantpool/ClassEntry;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.SuperclassImpl#writeTo(Ljdk/internal/classfile/impl/DirectClassBuilder;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.TerminalCodeBuilder#setupTopLocal(Ljdk/internal/classfile/impl/MethodInfo;Ljava/lang/classfile/CodeModel;)I",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute#<init>(Ljava/lang/classfile/AttributeMapper;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute#attributeMapper()Ljava/lang/classfile/AttributeMapper;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute#writeTo(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute#writeTo(Ljdk/internal/classfile/impl/DirectClassBuilder;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute#writeTo(Ljdk/internal/classfile/impl/DirectMethodBuilder;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute$AdHocAttribute#<init>(Ljava/lang/classfile/AttributeMapper;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute$AdHocAttribute#writeTo(Ljdk/internal/classfile/impl/BufWriterImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute$UnboundRuntimeVisibleAnnotationsAttribute#annotations()Ljava/util/List;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute$UnboundRuntimeVisibleAnnotationsAttribute#attributeName()Ljava/lang/classfile/constantpool/Utf8Entry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute$UnboundSourceFileAttribute#<init>(Ljava/lang/classfile/constantpool/Utf8Entry;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute$UnboundSourceFileAttribute#attributeName()Ljava/lang/classfile/constantpool/Utf8Entry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.UnboundAttribute$UnboundSourceFileAttribute#sourceFile()Ljava/lang/classfile/constantpool/Utf8Entry;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.Util#buildingCode(Ljava/util/function/Consumer;)Ljava/util/function/Consumer;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.Util#fieldTypeSymbol(Ljava/lang/classfile/constantpool/Utf8Entry;)Ljava/lang/constant/ClassDesc;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.Util#isAttributeAllowed(Ljava/lang/classfile/Attribute;Ljdk/internal/classfile/impl/ClassFileImpl;)Z",
      "acquire"
    },
    {"jdk.internal.classfile.impl.Util#isDoubleSlot(Ljava/lang/constant/ClassDesc;)Z", "acquire"},
    {
      "jdk.internal.classfile.impl.Util#maxLocals(ILjava/lang/constant/MethodTypeDesc;)I", "acquire"
    },
    {
      "jdk.internal.classfile.impl.Util#methodTypeSymbol(Ljava/lang/classfile/constantpool/Utf8Entry;)Ljava/lang/constant/MethodTypeDesc;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.Util#parameterSlots(Ljava/lang/constant/MethodTypeDesc;)I",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.Util#toInternalName(Ljava/lang/constant/ClassDesc;)Ljava/lang/String;",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.Util#writeAttribute(Ljdk/internal/classfile/impl/BufWriterImpl;Ljava/lang/classfile/Attribute;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.Util#writeList(Ljdk/internal/classfile/impl/BufWriterImpl;[Ljdk/internal/classfile/impl/Util$Writable;I)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.Util$1WithCodeMethodHandler#<init>(Ljava/util/function/Consumer;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.Util$1WithCodeMethodHandler#accept(Ljava/lang/Object;)V",
      "acquire"
    },
    {
      "jdk.internal.classfile.impl.Util$1WithCodeMethodHandler#accept(Ljava/lang/classfile/MethodBuilder;)V",
      "acquire"
    },
    {"jdk.internal.constant.ClassOrInterfaceDescImpl#<init>(Ljava/lang/String;)V", "acquire"},
    {
      "jdk.internal.constant.ClassOrInterfaceDescImpl#descriptorString()Ljava/lang/String;",
      "acquire"
    },
    {"jdk.internal.constant.ClassOrInterfaceDescImpl#equals(Ljava/lang/Object;)Z", "acquire"},
    {"jdk.internal.constant.ClassOrInterfaceDescImpl#internalName()Ljava/lang/String;", "acquire"},
    {"jdk.internal.constant.ClassOrInterfaceDescImpl#isClassOrInterface()Z", "acquire"},
    {
      "jdk.internal.constant.ClassOrInterfaceDescImpl#ofValidated(Ljava/lang/String;)Ljdk/internal/constant/ClassOrInterfaceDescImpl;",
      "acquire"
    },
    {
      "jdk.internal.constant.ConstantUtils#concat(Ljava/lang/String;Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {
      "jdk.internal.constant.ConstantUtils#dropFirstAndLastChar(Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {
      "jdk.internal.constant.ConstantUtils#internalNameToDesc(Ljava/lang/String;)Ljava/lang/constant/ClassDesc;",
      "acquire"
    },
    {
      "jdk.internal.constant.ConstantUtils#referenceClassDesc(Ljava/lang/String;)Ljava/lang/constant/ClassDesc;",
      "acquire"
    },
    {
      "jdk.internal.constant.ConstantUtils#validateClassOrPackageName(Ljava/lang/String;ZZ)Ljava/lang/String;",
      "acquire"
    },
    {
      "jdk.internal.constant.ConstantUtils#validateInternalClassName(Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {
      "jdk.internal.constant.MethodTypeDescImpl#<init>(Ljava/lang/constant/ClassDesc;[Ljava/lang/constant/ClassDesc;)V",
      "acquire"
    },
    {
      "jdk.internal.constant.MethodTypeDescImpl#buildDescriptorString()Ljava/lang/String;",
      "acquire"
    },
    {"jdk.internal.constant.MethodTypeDescImpl#descriptorString()Ljava/lang/String;", "acquire"},
    {
      "jdk.internal.constant.MethodTypeDescImpl#ofValidated(Ljava/lang/constant/ClassDesc;[Ljava/lang/constant/ClassDesc;)Ljdk/internal/constant/MethodTypeDescImpl;",
      "acquire"
    },
    {"jdk.internal.constant.MethodTypeDescImpl#parameterCount()I", "acquire"},
    {
      "jdk.internal.constant.MethodTypeDescImpl#parameterType(I)Ljava/lang/constant/ClassDesc;",
      "acquire"
    },
    {
      "jdk.internal.constant.MethodTypeDescImpl#returnType()Ljava/lang/constant/ClassDesc;",
      "acquire"
    },
    {
      "jdk.internal.constant.PrimitiveClassDescImpl#descriptorString()Ljava/lang/String;", "acquire"
    },
    {"jdk.internal.constant.PrimitiveClassDescImpl#isPrimitive()Z", "acquire"},
    {
      "jdk.internal.loader.BootLoader#getNativeLibraries()Ljdk/internal/loader/NativeLibraries;",
      "acquire"
    },
    {"jdk.internal.loader.BootLoader#getUnnamedModule()Ljava/lang/Module;", "weave"},
    {
      "jdk.internal.loader.BootLoader#loadClassOrNull(Ljava/lang/String;)Ljava/lang/Class;",
      "acquire"
    },
    {"jdk.internal.loader.BootLoader#loadLibrary(Ljava/lang/String;)V", "acquire"},
    {
      "jdk.internal.loader.BuiltinClassLoader#defineClass(Ljava/lang/String;Ljdk/internal/loader/Resource;)Ljava/lang/Class;",
      "acquire"
    },
    {
      "jdk.internal.loader.BuiltinClassLoader#defineOrCheckPackage(Ljava/lang/String;Ljava/util/jar/Manifest;Ljava/net/URL;)Ljava/lang/Package;",
      "acquire"
    },
    {
      "jdk.internal.loader.BuiltinClassLoader#findClassOnClassPathOrNull(Ljava/lang/String;)Ljava/lang/Class;",
      "acquire"
    },
    {
      "jdk.internal.loader.BuiltinClassLoader#findLoadedModule(Ljava/lang/String;)Ljdk/internal/loader/BuiltinClassLoader$LoadedModule;",
      "acquire"
    },
    {
      "jdk.internal.loader.BuiltinClassLoader#getAndVerifyPackage(Ljava/lang/String;Ljava/util/jar/Manifest;Ljava/net/URL;)Ljava/lang/Package;",
      "acquire"
    },
    {"jdk.internal.loader.BuiltinClassLoader#hasClassPath()Z", "acquire"},
    {
      "jdk.internal.loader.BuiltinClassLoader#isSealed(Ljava/lang/String;Ljava/util/jar/Manifest;)Z",
      "acquire"
    },
    {
      "jdk.internal.loader.BuiltinClassLoader#loadClass(Ljava/lang/String;Z)Ljava/lang/Class;",
      "acquire"
    },
    {
      "jdk.internal.loader.BuiltinClassLoader#loadClassOrNull(Ljava/lang/String;)Ljava/lang/Class;",
      "acquire"
    },
    {
      "jdk.internal.loader.BuiltinClassLoader#loadClassOrNull(Ljava/lang/String;Z)Ljava/lang/Class;",
      "acquire"
    },
    {
      "jdk.internal.loader.BuiltinClassLoader$LoadedModule#loader()Ljdk/internal/loader/BuiltinClassLoader;",
      "acquire"
    },
    {"jdk.internal.loader.ClassLoaders#appClassLoader()Ljava/lang/ClassLoader;", "acquire"},
    {"jdk.internal.loader.ClassLoaders#platformClassLoader()Ljava/lang/ClassLoader;", "acquire"},
    {
      "jdk.internal.loader.ClassLoaders$AppClassLoader#defineOrCheckPackage(Ljava/lang/String;Ljava/util/jar/Manifest;Ljava/net/URL;)Ljava/lang/Package;",
      "acquire"
    },
    {
      "jdk.internal.loader.ClassLoaders$AppClassLoader#loadClass(Ljava/lang/String;Z)Ljava/lang/Class;",
      "acquire"
    },
    {
      "jdk.internal.loader.ClassLoaders$BootClassLoader#loadClassOrNull(Ljava/lang/String;Z)Ljava/lang/Class;",
      "acquire"
    },
    {
      "jdk.internal.loader.NativeLibraries#acquireNativeLibraryLock(Ljava/lang/String;)V", "acquire"
    },
    {"jdk.internal.loader.NativeLibraries#find(Ljava/lang/String;)J", "acquire"},
    {
      "jdk.internal.loader.NativeLibraries#findBuiltinLib(Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {
      "jdk.internal.loader.NativeLibraries#findEntry0(Ljdk/internal/loader/NativeLibraries$NativeLibraryImpl;Ljava/lang/String;)J",
      "acquire"
    },
    {
      "jdk.internal.loader.NativeLibraries#findFromPaths([Ljava/lang/String;Ljava/lang/Class;Ljava/lang/String;)Ljdk/internal/loader/NativeLibrary;",
      "acquire"
    },
    {
      "jdk.internal.loader.NativeLibraries#loadLibrary(Ljava/lang/Class;Ljava/io/File;)Ljdk/internal/loader/NativeLibrary;",
      "acquire"
    },
    {
      "jdk.internal.loader.NativeLibraries#loadLibrary(Ljava/lang/Class;Ljava/lang/String;)Ljdk/internal/loader/NativeLibrary;",
      "acquire"
    },
    {
      "jdk.internal.loader.NativeLibraries#loadLibrary(Ljava/lang/Class;Ljava/lang/String;Z)Ljdk/internal/loader/NativeLibrary;",
      "acquire"
    },
    {
      "jdk.internal.loader.NativeLibraries#loadLibrary(Ljava/lang/String;)Ljdk/internal/loader/NativeLibrary;",
      "acquire"
    },
    {
      "jdk.internal.loader.NativeLibraries#releaseNativeLibraryLock(Ljava/lang/String;)V", "acquire"
    },
    {"jdk.internal.loader.NativeLibraries$1#<init>()V", "acquire"},
    {
      "jdk.internal.loader.NativeLibraries$1#<init>(Ljdk/internal/loader/NativeLibraries;Ljava/io/File;)V",
      "acquire"
    },
    {
      "jdk.internal.loader.NativeLibraries$1#apply(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.loader.NativeLibraries$1#apply(Ljava/lang/String;Ljdk/internal/loader/NativeLibraries$CountedLock;)Ljdk/internal/loader/NativeLibraries$CountedLock;",
      "acquire"
    },
    {"jdk.internal.loader.NativeLibraries$1#run()Ljava/lang/Object;", "acquire"},
    {"jdk.internal.loader.NativeLibraries$1#run()Ljava/lang/String;", "acquire"},
    {"jdk.internal.loader.NativeLibraries$2#<init>()V", "acquire"},
    {
      "jdk.internal.loader.NativeLibraries$2#apply(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.loader.NativeLibraries$2#apply(Ljava/lang/String;Ljdk/internal/loader/NativeLibraries$CountedLock;)Ljdk/internal/loader/NativeLibraries$CountedLock;",
      "acquire"
    },
    {"jdk.internal.loader.NativeLibraries$CountedLock#<init>()V", "acquire"},
    {"jdk.internal.loader.NativeLibraries$CountedLock#getCounter()I", "acquire"},
    {"jdk.internal.loader.NativeLibraries$CountedLock#increment()V", "acquire"},
    {"jdk.internal.loader.NativeLibraries$NativeLibraryImpl#find(Ljava/lang/String;)J", "acquire"},
    {"jdk.internal.loader.NativeLibrary#findEntry0(JLjava/lang/String;)J", "acquire"},
    {"jdk.internal.loader.Resource#<init>()V", "acquire"},
    {"jdk.internal.loader.Resource#cachedInputStream()Ljava/io/InputStream;", "acquire"},
    {"jdk.internal.loader.Resource#getByteBuffer()Ljava/nio/ByteBuffer;", "acquire"},
    {"jdk.internal.loader.Resource#getBytes()[B", "acquire"},
    {
      "jdk.internal.loader.URLClassPath#getLoader(I)Ljdk/internal/loader/URLClassPath$Loader;",
      "acquire"
    },
    {
      "jdk.internal.loader.URLClassPath#getResource(Ljava/lang/String;)Ljdk/internal/loader/Resource;",
      "acquire"
    },
    {
      "jdk.internal.loader.URLClassPath$FileLoader#getResource(Ljava/lang/String;)Ljdk/internal/loader/Resource;",
      "acquire"
    },
    {
      "jdk.internal.loader.URLClassPath$JarLoader#createResource(Ljava/lang/String;Ljava/util/jar/JarEntry;)Ljdk/internal/loader/Resource;",
      "acquire"
    },
    {"jdk.internal.loader.URLClassPath$JarLoader#ensureOpen()V", "acquire"},
    {
      "jdk.internal.loader.URLClassPath$JarLoader#getResource(Ljava/lang/String;)Ljdk/internal/loader/Resource;",
      "acquire"
    },
    {
      "jdk.internal.loader.URLClassPath$JarLoader$1#<init>(Ljdk/internal/loader/URLClassPath$JarLoader;Ljava/lang/String;Ljava/net/URL;Ljava/util/jar/JarEntry;)V",
      "acquire"
    },
    {"jdk.internal.loader.URLClassPath$JarLoader$1#getBytes()[B", "acquire"},
    {
      "jdk.internal.loader.URLClassPath$JarLoader$1#getCodeSigners()[Ljava/security/CodeSigner;",
      "acquire"
    },
    {"jdk.internal.loader.URLClassPath$JarLoader$1#getCodeSourceURL()Ljava/net/URL;", "acquire"},
    {"jdk.internal.loader.URLClassPath$JarLoader$1#getContentLength()I", "acquire"},
    {
      "jdk.internal.loader.URLClassPath$JarLoader$1#getInputStream()Ljava/io/InputStream;",
      "acquire"
    },
    {
      "jdk.internal.loader.URLClassPath$JarLoader$1#getManifest()Ljava/util/jar/Manifest;",
      "acquire"
    },
    {"jdk.internal.loader.URLClassPath$Loader#getBaseURL()Ljava/net/URL;", "acquire"},
    {"jdk.internal.misc.Blocker#begin(Z)Z", "acquire"},
    {"jdk.internal.misc.Blocker#end(Z)V", "acquire"},
    {"jdk.internal.misc.CDS#isDumpingClassList()Z", "acquire"},
    {"jdk.internal.misc.CDS#isLoggingLambdaFormInvokers()Z", "acquire"},
    {"jdk.internal.misc.CDS#isUsingArchive()Z", "acquire"},
    {"jdk.internal.misc.CDS#needsClassInitBarrier(Ljava/lang/Class;)Z", "acquire"},
    {"jdk.internal.misc.CarrierThreadLocal#get()Ljava/lang/Object;", "acquire"},
    {
      "jdk.internal.misc.ScopedMemoryAccess#copyMemory(Ljdk/internal/foreign/MemorySessionImpl;Ljdk/internal/foreign/MemorySessionImpl;Ljava/lang/Object;JLjava/lang/Object;JJ)V",
      "acquire"
    },
    {
      "jdk.internal.misc.ScopedMemoryAccess#copyMemoryInternal(Ljdk/internal/foreign/MemorySessionImpl;Ljdk/internal/foreign/MemorySessionImpl;Ljava/lang/Object;JLjava/lang/Object;JJ)V",
      "acquire"
    },
    {
      "jdk.internal.misc.ScopedMemoryAccess#getLong(Ljdk/internal/foreign/MemorySessionImpl;Ljava/lang/Object;J)J",
      "weave"
    },
    {
      "jdk.internal.misc.ScopedMemoryAccess#getLong(Ljdk/internal/misc/ScopedMemoryAccess$Scope;Ljava/lang/Object;J)J",
      "weave"
    },
    {
      "jdk.internal.misc.ScopedMemoryAccess#getLongInternal(Ljdk/internal/foreign/MemorySessionImpl;Ljava/lang/Object;J)J",
      "weave"
    },
    {
      "jdk.internal.misc.ScopedMemoryAccess#getLongInternal(Ljdk/internal/misc/ScopedMemoryAccess$Scope;Ljava/lang/Object;J)J",
      "weave"
    },
    {
      "jdk.internal.misc.ScopedMemoryAccess#putLong(Ljdk/internal/foreign/MemorySessionImpl;Ljava/lang/Object;JJ)V",
      "weave"
    },
    {
      "jdk.internal.misc.ScopedMemoryAccess#putLong(Ljdk/internal/misc/ScopedMemoryAccess$Scope;Ljava/lang/Object;JJ)V",
      "weave"
    },
    {
      "jdk.internal.misc.ScopedMemoryAccess#putLongInternal(Ljdk/internal/foreign/MemorySessionImpl;Ljava/lang/Object;JJ)V",
      "weave"
    },
    {
      "jdk.internal.misc.ScopedMemoryAccess#putLongInternal(Ljdk/internal/misc/ScopedMemoryAccess$Scope;Ljava/lang/Object;JJ)V",
      "weave"
    },
    {
      "jdk.internal.misc.TerminatingThreadLocal#register(Ljdk/internal/misc/TerminatingThreadLocal;)V",
      "acquire"
    },
    {"jdk.internal.misc.Unsafe#alignToHeapWordSize(J)J", "acquire"},
    {"jdk.internal.misc.Unsafe#allocateInstance(Ljava/lang/Class;)Ljava/lang/Object;", "acquire"},
    {"jdk.internal.misc.Unsafe#allocateMemory(J)J", "acquire"},
    {"jdk.internal.misc.Unsafe#allocateMemory0(J)J", "acquire"},
    {"jdk.internal.misc.Unsafe#allocateMemoryChecks(J)V", "acquire"},
    {
      "jdk.internal.misc.Unsafe#allocateUninitializedArray(Ljava/lang/Class;I)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.misc.Unsafe#allocateUninitializedArray0(Ljava/lang/Class;I)Ljava/lang/Object;",
      "acquire"
    },
    {"jdk.internal.misc.Unsafe#arrayBaseOffset(Ljava/lang/Class;)I", "acquire"},
    {"jdk.internal.misc.Unsafe#arrayBaseOffset(Ljava/lang/Class;)J", "acquire"},
    {"jdk.internal.misc.Unsafe#arrayBaseOffset0(Ljava/lang/Class;)I", "acquire"},
    {"jdk.internal.misc.Unsafe#arrayIndexScale(Ljava/lang/Class;)I", "acquire"},
    {"jdk.internal.misc.Unsafe#arrayIndexScale0(Ljava/lang/Class;)I", "acquire"},
    {"jdk.internal.misc.Unsafe#checkNativeAddress(J)V", "acquire"},
    {"jdk.internal.misc.Unsafe#checkOffset(Ljava/lang/Object;J)V", "acquire"},
    {"jdk.internal.misc.Unsafe#checkPointer(Ljava/lang/Object;J)V", "acquire"},
    {"jdk.internal.misc.Unsafe#checkPrimitiveArray(Ljava/lang/Class;)V", "acquire"},
    {"jdk.internal.misc.Unsafe#checkPrimitivePointer(Ljava/lang/Object;J)V", "acquire"},
    {"jdk.internal.misc.Unsafe#checkSize(J)V", "acquire"},
    {"jdk.internal.misc.Unsafe#compareAndSetInt(Ljava/lang/Object;JII)Z", "acquire"},
    {"jdk.internal.misc.Unsafe#compareAndSetLong(Ljava/lang/Object;JJJ)Z", "acquire"},
    {
      "jdk.internal.misc.Unsafe#compareAndSetReference(Ljava/lang/Object;JLjava/lang/Object;Ljava/lang/Object;)Z",
      "acquire"
    },
    {"jdk.internal.misc.Unsafe#convEndian(ZC)C", "acquire"},
    {"jdk.internal.misc.Unsafe#convEndian(ZI)I", "acquire"},
    {"jdk.internal.misc.Unsafe#convEndian(ZS)S", "acquire"},
    {"jdk.internal.misc.Unsafe#copyMemory(Ljava/lang/Object;JLjava/lang/Object;JJ)V", "acquire"},
    {"jdk.internal.misc.Unsafe#copyMemory0(Ljava/lang/Object;JLjava/lang/Object;JJ)V", "acquire"},
    {
      "jdk.internal.misc.Unsafe#copyMemoryChecks(Ljava/lang/Object;JLjava/lang/Object;JJ)V",
      "acquire"
    },
    {"jdk.internal.misc.Unsafe#ensureClassInitialized(Ljava/lang/Class;)V", "acquire"},
    {"jdk.internal.misc.Unsafe#ensureClassInitialized0(Ljava/lang/Class;)V", "acquire"},
    {"jdk.internal.misc.Unsafe#fullFence()V", "acquire"},
    {"jdk.internal.misc.Unsafe#getAndAddInt(Ljava/lang/Object;JI)I", "acquire"},
    {"jdk.internal.misc.Unsafe#getAndAddLong(Ljava/lang/Object;JJ)J", "acquire"},
    {"jdk.internal.misc.Unsafe#getAndSetLong(Ljava/lang/Object;JJ)J", "acquire"},
    {"jdk.internal.misc.Unsafe#getByte(Ljava/lang/Object;J)B", "acquire"},
    {"jdk.internal.misc.Unsafe#getChar(Ljava/lang/Object;J)C", "acquire"},
    {"jdk.internal.misc.Unsafe#getCharUnaligned(Ljava/lang/Object;J)C", "acquire"},
    {"jdk.internal.misc.Unsafe#getCharUnaligned(Ljava/lang/Object;JZ)C", "acquire"},
    {"jdk.internal.misc.Unsafe#getInt(Ljava/lang/Object;J)I", "acquire"},
    {"jdk.internal.misc.Unsafe#getIntUnaligned(Ljava/lang/Object;J)I", "acquire"},
    {"jdk.internal.misc.Unsafe#getIntUnaligned(Ljava/lang/Object;JZ)I", "acquire"},
    {"jdk.internal.misc.Unsafe#getIntVolatile(Ljava/lang/Object;J)I", "acquire"},
    {"jdk.internal.misc.Unsafe#getLong(Ljava/lang/Object;J)J", "acquire"},
    {"jdk.internal.misc.Unsafe#getLongUnaligned(Ljava/lang/Object;J)J", "acquire"},
    {"jdk.internal.misc.Unsafe#getLongVolatile(Ljava/lang/Object;J)J", "acquire"},
    {"jdk.internal.misc.Unsafe#getReference(Ljava/lang/Object;J)Ljava/lang/Object;", "weave"},
    {
      "jdk.internal.misc.Unsafe#getReferenceAcquire(Ljava/lang/Object;J)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.misc.Unsafe#getReferenceVolatile(Ljava/lang/Object;J)Ljava/lang/Object;",
      "acquire"
    },
    {"jdk.internal.misc.Unsafe#getShort(Ljava/lang/Object;J)S", "acquire"},
    {"jdk.internal.misc.Unsafe#getShortUnaligned(Ljava/lang/Object;J)S", "acquire"},
    {"jdk.internal.misc.Unsafe#getShortUnaligned(Ljava/lang/Object;JZ)S", "acquire"},
    {"jdk.internal.misc.Unsafe#getUnsafe()Ljdk/internal/misc/Unsafe;", "acquire"},
    {"jdk.internal.misc.Unsafe#makeInt(BBBB)I", "acquire"},
    {"jdk.internal.misc.Unsafe#makeInt(SS)I", "weave"},
    {"jdk.internal.misc.Unsafe#makeLong(BBBBBBBB)J", "acquire"},
    {"jdk.internal.misc.Unsafe#makeLong(SSSS)J", "weave"},
    {"jdk.internal.misc.Unsafe#makeShort(BB)S", "acquire"},
    {"jdk.internal.misc.Unsafe#objectFieldOffset(Ljava/lang/Class;Ljava/lang/String;)J", "acquire"},
    {"jdk.internal.misc.Unsafe#objectFieldOffset(Ljava/lang/reflect/Field;)J", "acquire"},
    {"jdk.internal.misc.Unsafe#objectFieldOffset0(Ljava/lang/reflect/Field;)J", "acquire"},
    {
      "jdk.internal.misc.Unsafe#objectFieldOffset1(Ljava/lang/Class;Ljava/lang/String;)J", "acquire"
    },
    {"jdk.internal.misc.Unsafe#park(ZJ)V", "acquire"},
    {"jdk.internal.misc.Unsafe#pickPos(II)I", "acquire"},
    {"jdk.internal.misc.Unsafe#putByte(JB)V", "acquire"},
    {"jdk.internal.misc.Unsafe#putByte(Ljava/lang/Object;JB)V", "acquire"},
    {"jdk.internal.misc.Unsafe#putLong(Ljava/lang/Object;JJ)V", "weave"},
    {"jdk.internal.misc.Unsafe#putLongRelease(Ljava/lang/Object;JJ)V", "acquire"},
    {"jdk.internal.misc.Unsafe#putLongVolatile(Ljava/lang/Object;JJ)V", "acquire"},
    {"jdk.internal.misc.Unsafe#putReference(Ljava/lang/Object;JLjava/lang/Object;)V", "acquire"},
    {
      "jdk.internal.misc.Unsafe#putReferenceRelease(Ljava/lang/Object;JLjava/lang/Object;)V",
      "acquire"
    },
    {
      "jdk.internal.misc.Unsafe#putReferenceVolatile(Ljava/lang/Object;JLjava/lang/Object;)V",
      "acquire"
    },
    {"jdk.internal.misc.Unsafe#shouldBeInitialized(Ljava/lang/Class;)Z", "acquire"},
    {"jdk.internal.misc.Unsafe#shouldBeInitialized0(Ljava/lang/Class;)Z", "acquire"},
    {"jdk.internal.misc.Unsafe#storeFence()V", "acquire"},
    {"jdk.internal.misc.Unsafe#storeStoreFence()V", "acquire"},
    {"jdk.internal.misc.Unsafe#toUnsignedInt(B)I", "acquire"},
    {"jdk.internal.misc.Unsafe#toUnsignedInt(S)I", "weave"},
    {"jdk.internal.misc.Unsafe#toUnsignedLong(B)J", "acquire"},
    {"jdk.internal.misc.Unsafe#toUnsignedLong(S)J", "weave"},
    {"jdk.internal.misc.Unsafe#unpark(Ljava/lang/Object;)V", "acquire"},
    {"jdk.internal.misc.Unsafe#weakCompareAndSetInt(Ljava/lang/Object;JII)Z", "acquire"},
    {"jdk.internal.misc.Unsafe#weakCompareAndSetLong(Ljava/lang/Object;JJJ)Z", "acquire"},
    {"jdk.internal.misc.Unsafe#weakCompareAndSetLongRelease(Ljava/lang/Object;JJJ)Z", "acquire"},
    {"jdk.internal.misc.VM#initLevel()I", "acquire"},
    {"jdk.internal.misc.VM#isBooted()Z", "acquire"},
    {"jdk.internal.misc.VM#isModuleSystemInited()Z", "acquire"},
    {"jdk.internal.misc.VM#isSystemDomainLoader(Ljava/lang/ClassLoader;)Z", "acquire"},
    {"jdk.internal.misc.VM#toThreadState(I)Ljava/lang/Thread$State;", "acquire"},
    {"jdk.internal.org.objectweb.asm.AnnotationVisitor#<init>(I)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.AnnotationVisitor#<init>(ILjdk/internal/org/objectweb/asm/AnnotationVisitor;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.AnnotationWriter#<init>(Ljdk/internal/org/objectweb/asm/SymbolTable;ZLjdk/internal/org/objectweb/asm/ByteVector;Ljdk/internal/org/objectweb/asm/AnnotationWriter;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.AnnotationWriter#computeAnnotationsSize(Ljava/lang/String;)I",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.AnnotationWriter#computeAnnotationsSize(Ljdk/internal/org/objectweb/asm/AnnotationWriter;Ljdk/internal/org/objectweb/asm/AnnotationWriter;Ljdk/internal/org/objectweb/asm/AnnotationWriter;Ljdk/internal/org/objectweb/asm/AnnotationWriter;)I",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.AnnotationWriter#create(Ljdk/internal/org/objectweb/asm/SymbolTable;Ljava/lang/String;Ljdk/internal/org/objectweb/asm/AnnotationWriter;)Ljdk/internal/org/objectweb/asm/AnnotationWriter;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.AnnotationWriter#putAnnotations(ILjdk/internal/org/objectweb/asm/ByteVector;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.AnnotationWriter#putAnnotations(Ljdk/internal/org/objectweb/asm/SymbolTable;Ljdk/internal/org/objectweb/asm/AnnotationWriter;Ljdk/internal/org/objectweb/asm/AnnotationWriter;Ljdk/internal/org/objectweb/asm/AnnotationWriter;Ljdk/internal/org/objectweb/asm/AnnotationWriter;Ljdk/internal/org/objectweb/asm/ByteVector;)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.AnnotationWriter#visitEnd()V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.Attribute#computeAttributesSize(Ljdk/internal/org/objectweb/asm/SymbolTable;II)I",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.Attribute#putAttributes(Ljdk/internal/org/objectweb/asm/SymbolTable;IILjdk/internal/org/objectweb/asm/ByteVector;)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.ByteVector#<init>()V", "acquire"},
    {"jdk.internal.org.objectweb.asm.ByteVector#<init>(I)V", "acquire"},
    {"jdk.internal.org.objectweb.asm.ByteVector#enlarge(I)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.ByteVector#put11(II)Ljdk/internal/org/objectweb/asm/ByteVector;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.ByteVector#put12(II)Ljdk/internal/org/objectweb/asm/ByteVector;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.ByteVector#put122(III)Ljdk/internal/org/objectweb/asm/ByteVector;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.ByteVector#putByte(I)Ljdk/internal/org/objectweb/asm/ByteVector;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.ByteVector#putByteArray([BII)Ljdk/internal/org/objectweb/asm/ByteVector;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.ByteVector#putInt(I)Ljdk/internal/org/objectweb/asm/ByteVector;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.ByteVector#putShort(I)Ljdk/internal/org/objectweb/asm/ByteVector;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.ByteVector#putUTF8(Ljava/lang/String;)Ljdk/internal/org/objectweb/asm/ByteVector;",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.ClassVisitor#<init>(I)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.ClassVisitor#<init>(ILjdk/internal/org/objectweb/asm/ClassVisitor;)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.ClassWriter#<init>(I)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.ClassWriter#<init>(Ljdk/internal/org/objectweb/asm/ClassReader;I)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.ClassWriter#toByteArray()[B", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.ClassWriter#visit(IILjava/lang/String;Ljava/lang/String;Ljava/lang/String;[Ljava/lang/String;)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.ClassWriter#visitEnd()V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.ClassWriter#visitField(ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/Object;)Ljdk/internal/org/objectweb/asm/FieldVisitor;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.ClassWriter#visitMethod(ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;[Ljava/lang/String;)Ljdk/internal/org/objectweb/asm/MethodVisitor;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.ClassWriter#visitSource(Ljava/lang/String;Ljava/lang/String;)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.FieldVisitor#<init>(I)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.FieldVisitor#<init>(ILjdk/internal/org/objectweb/asm/FieldVisitor;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.FieldWriter#<init>(Ljdk/internal/org/objectweb/asm/SymbolTable;ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/Object;)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.FieldWriter#computeFieldInfoSize()I", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.FieldWriter#putFieldInfo(Ljdk/internal/org/objectweb/asm/ByteVector;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.FieldWriter#visitAnnotation(Ljava/lang/String;Z)Ljdk/internal/org/objectweb/asm/AnnotationVisitor;",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.FieldWriter#visitEnd()V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.Frame#<init>(Ljdk/internal/org/objectweb/asm/Label;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.Frame#accept(Ljdk/internal/org/objectweb/asm/MethodWriter;)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.Frame#addInitializedType(I)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.Frame#execute(IILjdk/internal/org/objectweb/asm/Symbol;Ljdk/internal/org/objectweb/asm/SymbolTable;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.Frame#getAbstractTypeFromDescriptor(Ljdk/internal/org/objectweb/asm/SymbolTable;Ljava/lang/String;I)I",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.Frame#getInputStackSize()I", "acquire"},
    {"jdk.internal.org.objectweb.asm.Frame#getLocal(I)I", "acquire"},
    {"jdk.internal.org.objectweb.asm.Frame#pop()I", "acquire"},
    {"jdk.internal.org.objectweb.asm.Frame#pop(I)V", "acquire"},
    {"jdk.internal.org.objectweb.asm.Frame#pop(Ljava/lang/String;)V", "acquire"},
    {"jdk.internal.org.objectweb.asm.Frame#push(I)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.Frame#push(Ljdk/internal/org/objectweb/asm/SymbolTable;Ljava/lang/String;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.Frame#setInputFrameFromDescriptor(Ljdk/internal/org/objectweb/asm/SymbolTable;ILjava/lang/String;I)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.Frame#setLocal(II)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.Handler#getExceptionTableLength(Ljdk/internal/org/objectweb/asm/Handler;)I",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.Handler#getExceptionTableSize(Ljdk/internal/org/objectweb/asm/Handler;)I",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.Handler#putExceptionTable(Ljdk/internal/org/objectweb/asm/Handler;Ljdk/internal/org/objectweb/asm/ByteVector;)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.Label#<init>()V", "acquire"},
    {"jdk.internal.org.objectweb.asm.Label#resolve([BI)Z", "acquire"},
    {"jdk.internal.org.objectweb.asm.MethodVisitor#<init>(I)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.MethodVisitor#<init>(ILjdk/internal/org/objectweb/asm/MethodVisitor;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.MethodWriter#<init>(Ljdk/internal/org/objectweb/asm/SymbolTable;ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;[Ljava/lang/String;I)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.MethodWriter#computeAllFrames()V", "acquire"},
    {"jdk.internal.org.objectweb.asm.MethodWriter#computeMethodInfoSize()I", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.MethodWriter#endCurrentBasicBlockWithNoSuccessor()V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.MethodWriter#hasAsmInstructions()Z", "acquire"},
    {"jdk.internal.org.objectweb.asm.MethodWriter#hasFrames()Z", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.MethodWriter#putMethodInfo(Ljdk/internal/org/objectweb/asm/ByteVector;)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.MethodWriter#visitAbstractType(II)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.MethodWriter#visitAnnotation(Ljava/lang/String;Z)Ljdk/internal/org/objectweb/asm/AnnotationVisitor;",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.MethodWriter#visitCode()V", "acquire"},
    {"jdk.internal.org.objectweb.asm.MethodWriter#visitEnd()V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.MethodWriter#visitFieldInsn(ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.MethodWriter#visitFrameEnd()V", "acquire"},
    {"jdk.internal.org.objectweb.asm.MethodWriter#visitFrameStart(III)I", "acquire"},
    {"jdk.internal.org.objectweb.asm.MethodWriter#visitInsn(I)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.MethodWriter#visitLabel(Ljdk/internal/org/objectweb/asm/Label;)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.MethodWriter#visitLdcInsn(Ljava/lang/Object;)V", "acquire"},
    {"jdk.internal.org.objectweb.asm.MethodWriter#visitMaxs(II)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.MethodWriter#visitMethodInsn(ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;Z)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.MethodWriter#visitTypeInsn(ILjava/lang/String;)V", "acquire"},
    {"jdk.internal.org.objectweb.asm.MethodWriter#visitVarInsn(II)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.Symbol#<init>(IILjava/lang/String;Ljava/lang/String;Ljava/lang/String;J)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.Symbol#getArgumentsAndReturnSizes()I", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#<init>(Ljdk/internal/org/objectweb/asm/ClassWriter;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#addConstant(Ljava/lang/Object;)Ljdk/internal/org/objectweb/asm/Symbol;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#addConstantClass(Ljava/lang/String;)Ljdk/internal/org/objectweb/asm/Symbol;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#addConstantFieldref(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)Ljdk/internal/org/objectweb/asm/Symbol;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#addConstantMemberReference(ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;)Ljdk/internal/org/objectweb/asm/SymbolTable$Entry;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#addConstantMethodref(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;Z)Ljdk/internal/org/objectweb/asm/Symbol;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#addConstantNameAndType(Ljava/lang/String;Ljava/lang/String;)I",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.SymbolTable#addConstantUtf8(Ljava/lang/String;)I", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#addConstantUtf8Reference(ILjava/lang/String;)Ljdk/internal/org/objectweb/asm/Symbol;",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.SymbolTable#addType(Ljava/lang/String;)I", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#addTypeInternal(Ljdk/internal/org/objectweb/asm/SymbolTable$Entry;)I",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#addUninitializedType(Ljava/lang/String;I)I",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.SymbolTable#computeBootstrapMethodsSize()I", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#get(I)Ljdk/internal/org/objectweb/asm/SymbolTable$Entry;",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.SymbolTable#getClassName()Ljava/lang/String;", "acquire"},
    {"jdk.internal.org.objectweb.asm.SymbolTable#getConstantPoolCount()I", "acquire"},
    {"jdk.internal.org.objectweb.asm.SymbolTable#getConstantPoolLength()I", "acquire"},
    {"jdk.internal.org.objectweb.asm.SymbolTable#getMajorVersion()I", "acquire"},
    {"jdk.internal.org.objectweb.asm.SymbolTable#hash(ILjava/lang/String;)I", "acquire"},
    {"jdk.internal.org.objectweb.asm.SymbolTable#hash(ILjava/lang/String;I)I", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#hash(ILjava/lang/String;Ljava/lang/String;)I",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#hash(ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;)I",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#put(Ljdk/internal/org/objectweb/asm/SymbolTable$Entry;)Ljdk/internal/org/objectweb/asm/SymbolTable$Entry;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#putBootstrapMethods(Ljdk/internal/org/objectweb/asm/ByteVector;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#putConstantPool(Ljdk/internal/org/objectweb/asm/ByteVector;)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable#setMajorVersionAndClassName(ILjava/lang/String;)I",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.SymbolTable$Entry#<init>(IILjava/lang/String;I)V", "acquire"},
    {"jdk.internal.org.objectweb.asm.SymbolTable$Entry#<init>(IILjava/lang/String;JI)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.SymbolTable$Entry#<init>(IILjava/lang/String;Ljava/lang/String;I)V",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.SymbolTable$Entry#<init>(IILjava/lang/String;Ljava/lang/String;Ljava/lang/String;JI)V",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.Type#<init>(ILjava/lang/String;II)V", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.Type#getArgumentTypes(Ljava/lang/String;)[Ljdk/internal/org/objectweb/asm/Type;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.Type#getArgumentsAndReturnSizes(Ljava/lang/String;)I",
      "acquire"
    },
    {"jdk.internal.org.objectweb.asm.Type#getDescriptor()Ljava/lang/String;", "acquire"},
    {"jdk.internal.org.objectweb.asm.Type#getInternalName()Ljava/lang/String;", "acquire"},
    {"jdk.internal.org.objectweb.asm.Type#getReturnTypeOffset(Ljava/lang/String;)I", "acquire"},
    {"jdk.internal.org.objectweb.asm.Type#getSort()I", "acquire"},
    {
      "jdk.internal.org.objectweb.asm.Type#getType(Ljava/lang/String;)Ljdk/internal/org/objectweb/asm/Type;",
      "acquire"
    },
    {
      "jdk.internal.org.objectweb.asm.Type#getTypeInternal(Ljava/lang/String;II)Ljdk/internal/org/objectweb/asm/Type;",
      "acquire"
    },
    {"jdk.internal.perf.PerfCounter#add(J)V", "weave"},
    {"jdk.internal.perf.PerfCounter#addElapsedTimeFrom(J)V", "weave"},
    {"jdk.internal.perf.PerfCounter#addTime(J)V", "weave"},
    {"jdk.internal.perf.PerfCounter#get()J", "weave"},
    {"jdk.internal.perf.PerfCounter#getFindClassTime()Ljdk/internal/perf/PerfCounter;", "weave"},
    {"jdk.internal.perf.PerfCounter#getFindClasses()Ljdk/internal/perf/PerfCounter;", "weave"},
    {
      "jdk.internal.perf.PerfCounter#getParentDelegationTime()Ljdk/internal/perf/PerfCounter;",
      "weave"
    },
    {"jdk.internal.perf.PerfCounter#increment()V", "weave"},
    {"jdk.internal.ref.CleanerFactory#cleaner()Ljava/lang/ref/Cleaner;", "acquire"},
    {
      "jdk.internal.ref.CleanerImpl#getCleanerImpl(Ljava/lang/ref/Cleaner;)Ljdk/internal/ref/CleanerImpl;",
      "acquire"
    },
    {
      "jdk.internal.ref.CleanerImpl$CleanableList#insert(Ljdk/internal/ref/PhantomCleanable;)V",
      "acquire"
    },
    {
      "jdk.internal.ref.CleanerImpl$CleanableList#remove(Ljdk/internal/ref/PhantomCleanable;)Z",
      "acquire"
    },
    {
      "jdk.internal.ref.CleanerImpl$PhantomCleanableRef#<init>(Ljava/lang/Object;Ljava/lang/ref/Cleaner;Ljava/lang/Runnable;)V",
      "acquire"
    },
    {"jdk.internal.ref.CleanerImpl$PhantomCleanableRef#performCleanup()V", "acquire"},
    {
      "jdk.internal.ref.PhantomCleanable#<init>(Ljava/lang/Object;Ljava/lang/ref/Cleaner;)V",
      "acquire"
    },
    {"jdk.internal.ref.PhantomCleanable#clean()V", "acquire"},
    {"jdk.internal.ref.PhantomCleanable#insert()V", "weave"},
    {"jdk.internal.ref.PhantomCleanable#remove()Z", "weave"},
    {"jdk.internal.reflect.ConstructorAccessorImpl#<init>()V", "acquire"},
    {
      "jdk.internal.reflect.DelegatingConstructorAccessorImpl#<init>(Ljdk/internal/reflect/ConstructorAccessorImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.reflect.DelegatingConstructorAccessorImpl#newInstance([Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.reflect.DelegatingConstructorAccessorImpl#setDelegate(Ljdk/internal/reflect/ConstructorAccessorImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.reflect.DirectConstructorHandleAccessor#invokeImpl([Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.reflect.DirectConstructorHandleAccessor#newInstance([Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {"jdk.internal.reflect.MagicAccessorImpl#<init>()V", "acquire"},
    {
      "jdk.internal.reflect.NativeConstructorAccessorImpl#<init>(Ljava/lang/reflect/Constructor;)V",
      "acquire"
    },
    {
      "jdk.internal.reflect.NativeConstructorAccessorImpl#newInstance([Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.reflect.NativeConstructorAccessorImpl#newInstance0(Ljava/lang/reflect/Constructor;[Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.reflect.NativeConstructorAccessorImpl#setParent(Ljdk/internal/reflect/DelegatingConstructorAccessorImpl;)V",
      "acquire"
    },
    {
      "jdk.internal.reflect.Reflection#areNestMates(Ljava/lang/Class;Ljava/lang/Class;)Z", "acquire"
    },
    {
      "jdk.internal.reflect.Reflection#ensureMemberAccess(Ljava/lang/Class;Ljava/lang/Class;Ljava/lang/Class;I)V",
      "acquire"
    },
    {
      "jdk.internal.reflect.Reflection#filter([Ljava/lang/reflect/Member;Ljava/util/Set;)[Ljava/lang/reflect/Member;",
      "acquire"
    },
    {
      "jdk.internal.reflect.Reflection#filterFields(Ljava/lang/Class;[Ljava/lang/reflect/Field;)[Ljava/lang/reflect/Field;",
      "acquire"
    },
    {
      "jdk.internal.reflect.Reflection#filterMethods(Ljava/lang/Class;[Ljava/lang/reflect/Method;)[Ljava/lang/reflect/Method;",
      "acquire"
    },
    {"jdk.internal.reflect.Reflection#getCallerClass()Ljava/lang/Class;", "acquire"},
    {"jdk.internal.reflect.Reflection#getClassAccessFlags(Ljava/lang/Class;)I", "acquire"},
    {
      "jdk.internal.reflect.Reflection#isSameClassPackage(Ljava/lang/Class;Ljava/lang/Class;)Z",
      "acquire"
    },
    {
      "jdk.internal.reflect.Reflection#isSubclassOf(Ljava/lang/Class;Ljava/lang/Class;)Z", "acquire"
    },
    {
      "jdk.internal.reflect.Reflection#verifyMemberAccess(Ljava/lang/Class;Ljava/lang/Class;Ljava/lang/Class;I)Z",
      "acquire"
    },
    {
      "jdk.internal.reflect.Reflection#verifyModuleAccess(Ljava/lang/Module;Ljava/lang/Class;)Z",
      "acquire"
    },
    {"jdk.internal.reflect.ReflectionFactory#checkInitted()V", "acquire"},
    {
      "jdk.internal.reflect.ReflectionFactory#copyConstructor(Ljava/lang/reflect/Constructor;)Ljava/lang/reflect/Constructor;",
      "acquire"
    },
    {
      "jdk.internal.reflect.ReflectionFactory#copyField(Ljava/lang/reflect/Field;)Ljava/lang/reflect/Field;",
      "acquire"
    },
    {
      "jdk.internal.reflect.ReflectionFactory#copyMethod(Ljava/lang/reflect/Method;)Ljava/lang/reflect/Method;",
      "acquire"
    },
    {
      "jdk.internal.reflect.ReflectionFactory#getExecutableSharedParameterTypes(Ljava/lang/reflect/Executable;)[Ljava/lang/Class;",
      "acquire"
    },
    {"jdk.internal.reflect.ReflectionFactory#inflationThreshold()I", "acquire"},
    {
      "jdk.internal.reflect.ReflectionFactory#newConstructorAccessor(Ljava/lang/reflect/Constructor;)Ljdk/internal/reflect/ConstructorAccessor;",
      "acquire"
    },
    {
      "jdk.internal.reflect.ReflectionFactory#newInstance(Ljava/lang/reflect/Constructor;[Ljava/lang/Object;Ljava/lang/Class;)Ljava/lang/Object;",
      "acquire"
    },
    {"jdk.internal.util.ArraysSupport#hashCode([Ljava/lang/Object;III)I", "acquire"},
    {"jdk.internal.util.ArraysSupport#hashCodeOfUnsigned([BIII)I", "acquire"},
    {"jdk.internal.util.ArraysSupport#mismatch([BI[BII)I", "acquire"},
    {"jdk.internal.util.ArraysSupport#newLength(III)I", "acquire"},
    {"jdk.internal.util.ArraysSupport#unsignedHashCode(I[BII)I", "acquire"},
    {"jdk.internal.util.ArraysSupport#vectorizedHashCode(Ljava/lang/Object;IIII)I", "acquire"},
    {
      "jdk.internal.util.ArraysSupport#vectorizedMismatch(Ljava/lang/Object;JLjava/lang/Object;JII)I",
      "acquire"
    },
    {"jdk.internal.util.ClassFileDumper#isEnabled()Z", "acquire"},
    {"jdk.internal.util.DecimalDigits#stringSize(I)I", "acquire"},
    {"jdk.internal.util.DecimalDigits#stringSize(J)I", "acquire"},
    {"jdk.internal.util.DecimalDigits#uncheckedGetCharsLatin1(II[B)I", "acquire"},
    {"jdk.internal.util.DecimalDigits#uncheckedGetCharsLatin1(JI[B)I", "acquire"},
    {"jdk.internal.util.DecimalDigits#uncheckedPutCharLatin1([BII)V", "acquire"},
    {"jdk.internal.util.DecimalDigits#uncheckedPutPairLatin1([BII)V", "acquire"},
    {"jdk.internal.util.Exceptions#<clinit>()V", "acquire"},
    {"jdk.internal.util.Exceptions#setup()V", "acquire"},
    {"jdk.internal.util.ModifiedUtf#utfLen(Ljava/lang/String;I)I", "acquire"},
    {
      "jdk.internal.util.Preconditions#checkFromIndexSize(IIILjava/util/function/BiFunction;)I",
      "acquire"
    },
    {
      "jdk.internal.util.Preconditions#checkFromToIndex(IIILjava/util/function/BiFunction;)I",
      "acquire"
    },
    {"jdk.internal.util.Preconditions#checkIndex(IILjava/util/function/BiFunction;)I", "acquire"},
    {
      "jdk.internal.util.Preconditions#outOfBounds(Ljava/util/function/BiFunction;Ljava/lang/String;[Ljava/lang/Number;)Ljava/lang/RuntimeException;",
      "acquire"
    },
    {
      "jdk.internal.util.Preconditions#outOfBoundsCheckIndex(Ljava/util/function/BiFunction;II)Ljava/lang/RuntimeException;",
      "acquire"
    },
    {
      "jdk.internal.util.Preconditions#outOfBoundsMessage(Ljava/lang/String;Ljava/util/List;)Ljava/lang/String;",
      "acquire"
    },
    {
      "jdk.internal.util.Preconditions$1#apply(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.util.Preconditions$1#apply(Ljava/lang/String;Ljava/util/List;)Ljava/lang/RuntimeException;",
      "acquire"
    },
    {"jdk.internal.util.Preconditions$2#apply(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {
      "jdk.internal.util.Preconditions$2#apply(Ljava/lang/String;)Ljava/lang/ArrayIndexOutOfBoundsException;",
      "acquire"
    },
    {
      "jdk.internal.util.Preconditions$4#apply(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.util.Preconditions$4#apply(Ljava/lang/String;Ljava/util/List;)Ljava/lang/RuntimeException;",
      "acquire"
    },
    {
      "jdk.internal.util.ReferencedKeyMap#entryKey(Ljava/lang/Object;)Ljdk/internal/util/ReferenceKey;",
      "acquire"
    },
    {
      "jdk.internal.util.ReferencedKeyMap#existingKey(Ljdk/internal/util/ReferencedKeyMap;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {"jdk.internal.util.ReferencedKeyMap#get(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {
      "jdk.internal.util.ReferencedKeyMap#getNoCheckStale(Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.util.ReferencedKeyMap#intern(Ljdk/internal/util/ReferencedKeyMap;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.util.ReferencedKeyMap#internKey(Ljdk/internal/util/ReferencedKeyMap;Ljava/lang/Object;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "jdk.internal.util.ReferencedKeyMap#lookupKey(Ljava/lang/Object;)Ljdk/internal/util/ReferenceKey;",
      "acquire"
    },
    {"jdk.internal.util.ReferencedKeyMap#removeStaleReferences()V", "acquire"},
    {"jdk.internal.util.ReferencedKeySet#get(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {"jdk.internal.util.ReferencedKeySet#intern(Ljava/lang/Object;)Ljava/lang/Object;", "acquire"},
    {"jdk.internal.util.StaticProperty#javaHome()Ljava/lang/String;", "acquire"},
    {"jdk.internal.util.StrongReferenceKey#<init>(Ljava/lang/Object;)V", "acquire"},
    {"jdk.internal.util.StrongReferenceKey#equals(Ljava/lang/Object;)Z", "acquire"},
    {"jdk.internal.util.StrongReferenceKey#get()Ljava/lang/Object;", "acquire"},
    {"jdk.internal.util.StrongReferenceKey#hashCode()I", "acquire"},
    {
      "jdk.internal.util.WeakReferenceKey#<init>(Ljava/lang/Object;Ljava/lang/ref/ReferenceQueue;)V",
      "acquire"
    },
    {"jdk.internal.util.WeakReferenceKey#hashCode()I", "acquire"},
    {
      "sun.instrument.InstrumentationImpl#transform(Ljava/lang/Module;Ljava/lang/ClassLoader;Ljava/lang/String;Ljava/lang/Class;Ljava/security/ProtectionDomain;[BZ)[B",
      "weave"
    },
    {
      "sun.instrument.TransformerManager#getSnapshotTransformerList()[Lsun/instrument/TransformerManager$TransformerInfo;",
      "weave"
    },
    {
      "sun.instrument.TransformerManager#transform(Ljava/lang/Module;Ljava/lang/ClassLoader;Ljava/lang/String;Ljava/lang/Class;Ljava/security/ProtectionDomain;[B)[B",
      "weave"
    },
    {
      "sun.instrument.TransformerManager$TransformerInfo#transformer()Ljava/lang/instrument/ClassFileTransformer;",
      "weave"
    },
    {"sun.invoke.util.BytecodeDescriptor#unparse(Ljava/lang/Class;)Ljava/lang/String;", "acquire"},
    {
      "sun.invoke.util.BytecodeDescriptor#unparseMethod(Ljava/lang/Class;[Ljava/lang/Class;)Ljava/lang/String;",
      "acquire"
    },
    {
      "sun.invoke.util.BytecodeDescriptor#unparseSig(Ljava/lang/Class;Ljava/lang/StringBuilder;)V",
      "acquire"
    },
    {"sun.invoke.util.ValueConversions#<clinit>()V", "acquire"},
    {"sun.invoke.util.ValueConversions#boxBoolean(Z)Ljava/lang/Boolean;", "acquire"},
    {
      "sun.invoke.util.ValueConversions#boxExact(Lsun/invoke/util/Wrapper;)Ljava/lang/invoke/MethodHandle;",
      "acquire"
    },
    {
      "sun.invoke.util.ValueConversions#boxType(Lsun/invoke/util/Wrapper;)Ljava/lang/invoke/MethodType;",
      "acquire"
    },
    {"sun.invoke.util.ValueConversions#fromBoolean(Z)B", "acquire"},
    {
      "sun.invoke.util.ValueConversions#newWrapperCaches(I)[Lsun/invoke/util/ValueConversions$WrapperCache;",
      "acquire"
    },
    {
      "sun.invoke.util.ValueConversions#unbox(Lsun/invoke/util/Wrapper;I)Ljava/lang/invoke/MethodHandle;",
      "acquire"
    },
    {"sun.invoke.util.ValueConversions#unboxBoolean(Ljava/lang/Object;Z)Z", "acquire"},
    {"sun.invoke.util.ValueConversions#unboxInteger(Ljava/lang/Object;Z)I", "acquire"},
    {"sun.invoke.util.ValueConversions#unboxLong(Ljava/lang/Object;Z)J", "acquire"},
    {
      "sun.invoke.util.ValueConversions#unboxType(Lsun/invoke/util/Wrapper;I)Ljava/lang/invoke/MethodType;",
      "acquire"
    },
    {
      "sun.invoke.util.ValueConversions#unboxWiden(Lsun/invoke/util/Wrapper;)Ljava/lang/invoke/MethodHandle;",
      "acquire"
    },
    {"sun.invoke.util.ValueConversions#widenSubword(Ljava/lang/Object;)I", "acquire"},
    {"sun.invoke.util.ValueConversions$1#<clinit>()V", "acquire"},
    {"sun.invoke.util.ValueConversions$WrapperCache#<init>()V", "acquire"},
    {
      "sun.invoke.util.ValueConversions$WrapperCache#get(Lsun/invoke/util/Wrapper;)Ljava/lang/invoke/MethodHandle;",
      "acquire"
    },
    {
      "sun.invoke.util.ValueConversions$WrapperCache#put(Lsun/invoke/util/Wrapper;Ljava/lang/invoke/MethodHandle;)Ljava/lang/invoke/MethodHandle;",
      "acquire"
    },
    {
      "sun.invoke.util.VerifyAccess#ensureTypeVisible(Ljava/lang/Class;Ljava/lang/Class;)Z",
      "acquire"
    },
    {
      "sun.invoke.util.VerifyAccess#ensureTypeVisible(Ljava/lang/invoke/MethodType;Ljava/lang/Class;)Z",
      "acquire"
    },
    {"sun.invoke.util.VerifyAccess#getClassModifiers(Ljava/lang/Class;)I", "acquire"},
    {
      "sun.invoke.util.VerifyAccess#isClassAccessible(Ljava/lang/Class;Ljava/lang/Class;Ljava/lang/Class;I)Z",
      "acquire"
    },
    {
      "sun.invoke.util.VerifyAccess#isMemberAccessible(Ljava/lang/Class;Ljava/lang/Class;ILjava/lang/Class;Ljava/lang/Class;I)Z",
      "acquire"
    },
    {"sun.invoke.util.VerifyAccess#isSamePackage(Ljava/lang/Class;Ljava/lang/Class;)Z", "acquire"},
    {"sun.invoke.util.VerifyAccess#isTypeVisible(Ljava/lang/Class;Ljava/lang/Class;)Z", "acquire"},
    {
      "sun.invoke.util.VerifyAccess#isTypeVisible(Ljava/lang/invoke/MethodType;Ljava/lang/Class;)Z",
      "acquire"
    },
    {
      "sun.invoke.util.VerifyType#isNullConversion(Ljava/lang/Class;Ljava/lang/Class;Z)Z", "acquire"
    },
    {
      "sun.invoke.util.VerifyType#isNullReferenceConversion(Ljava/lang/Class;Ljava/lang/Class;)Z",
      "acquire"
    },
    {"sun.invoke.util.VerifyType#isNullType(Ljava/lang/Class;)Z", "acquire"},
    {"sun.invoke.util.Wrapper#basicClassDescriptor()Ljava/lang/constant/ClassDesc;", "acquire"},
    {"sun.invoke.util.Wrapper#basicTypeChar()C", "acquire"},
    {"sun.invoke.util.Wrapper#basicTypeChar(Ljava/lang/Class;)C", "acquire"},
    {
      "sun.invoke.util.Wrapper#convert(Ljava/lang/Object;Ljava/lang/Class;)Ljava/lang/Object;",
      "acquire"
    },
    {
      "sun.invoke.util.Wrapper#convert(Ljava/lang/Object;Ljava/lang/Class;Z)Ljava/lang/Object;",
      "acquire"
    },
    {
      "sun.invoke.util.Wrapper#findPrimitiveType(Ljava/lang/Class;)Lsun/invoke/util/Wrapper;",
      "acquire"
    },
    {"sun.invoke.util.Wrapper#forBasicType(Ljava/lang/Class;)Lsun/invoke/util/Wrapper;", "acquire"},
    {
      "sun.invoke.util.Wrapper#forPrimitiveType(Ljava/lang/Class;)Lsun/invoke/util/Wrapper;",
      "acquire"
    },
    {
      "sun.invoke.util.Wrapper#forceType(Ljava/lang/Class;Ljava/lang/Class;)Ljava/lang/Class;",
      "acquire"
    },
    {"sun.invoke.util.Wrapper#hashPrim(Ljava/lang/Class;)I", "acquire"},
    {"sun.invoke.util.Wrapper#isDoubleWord()Z", "acquire"},
    {"sun.invoke.util.Wrapper#isIntegral()Z", "acquire"},
    {"sun.invoke.util.Wrapper#isNumeric()Z", "acquire"},
    {"sun.invoke.util.Wrapper#isSingleWord()Z", "acquire"},
    {"sun.invoke.util.Wrapper#isSubwordOrInt()Z", "acquire"},
    {"sun.invoke.util.Wrapper#primitiveType()Ljava/lang/Class;", "acquire"},
    {"sun.invoke.util.Wrapper#stackSlots()I", "acquire"},
    {"sun.invoke.util.Wrapper#values()[Lsun/invoke/util/Wrapper;", "acquire"},
    {"sun.invoke.util.Wrapper#wrapperSimpleName()Ljava/lang/String;", "acquire"},
    {"sun.invoke.util.Wrapper#wrapperType()Ljava/lang/Class;", "acquire"},
    {"sun.invoke.util.Wrapper#wrapperType(Ljava/lang/Class;)Ljava/lang/Class;", "acquire"},
    {"sun.invoke.util.Wrapper#zero()Ljava/lang/Object;", "acquire"},
    {"sun.net.util.IPAddressUtil#checkAuth(Ljava/lang/String;)Ljava/lang/String;", "acquire"},
    {"sun.net.util.IPAddressUtil#checkHost(Ljava/lang/String;)Ljava/lang/String;", "acquire"},
    {"sun.net.util.IPAddressUtil#checkHostString(Ljava/lang/String;)Ljava/lang/String;", "acquire"},
    {"sun.net.util.IPAddressUtil#digit(CI)I", "acquire"},
    {"sun.net.util.IPAddressUtil#earlyURLParsing()Z", "acquire"},
    {"sun.net.util.IPAddressUtil#parseAsciiDigit(CI)I", "acquire"},
    {"sun.net.util.IPAddressUtil#parseAsciiHexDigit(C)I", "acquire"},
    {"sun.net.util.IPAddressUtil#scan(Ljava/lang/String;JJ)I", "acquire"},
    {"sun.net.util.IPAddressUtil#scan(Ljava/lang/String;JJ[C)I", "acquire"},
    {"sun.net.util.IPAddressUtil#textToNumericFormatV4(Ljava/lang/String;)[B", "acquire"},
    {"sun.net.util.IPAddressUtil#validateNumericFormatV4(Ljava/lang/String;)[B", "acquire"},
    {"sun.net.util.IPAddressUtil#validateNumericFormatV4(Ljava/lang/String;Z)[B", "acquire"},
    {"sun.net.util.URLUtil#urlNoFragString(Ljava/net/URL;)Ljava/lang/String;", "acquire"},
    {"sun.net.www.ParseUtil#encodePath(Ljava/lang/String;Z)Ljava/lang/String;", "acquire"},
    {"sun.net.www.ParseUtil#firstEncodeIndex(Ljava/lang/String;)I", "acquire"},
    {"sun.net.www.protocol.file.Handler#parseURL(Ljava/net/URL;Ljava/lang/String;II)V", "acquire"},
    {
      "sun.net.www.protocol.jar.Handler#canonicalizeString(Ljava/lang/String;I)Ljava/lang/String;",
      "acquire"
    },
    {
      "sun.net.www.protocol.jar.Handler#checkNestedProtocol(Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {"sun.net.www.protocol.jar.Handler#indexOfBangSlash(Ljava/lang/String;)I", "acquire"},
    {
      "sun.net.www.protocol.jar.Handler#parseContextSpec(Ljava/net/URL;Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {"sun.net.www.protocol.jar.Handler#parseURL(Ljava/net/URL;Ljava/lang/String;II)V", "acquire"},
    {"sun.nio.ch.ChannelInputStream#<init>(Ljava/nio/channels/ReadableByteChannel;)V", "acquire"},
    {"sun.nio.ch.ChannelInputStream#close()V", "acquire"},
    {"sun.nio.ch.ChannelInputStream#read(Ljava/nio/ByteBuffer;)I", "acquire"},
    {"sun.nio.ch.ChannelInputStream#read([BII)I", "acquire"},
    {
      "sun.nio.ch.FileChannelImpl#<init>(Ljava/io/FileDescriptor;Ljava/lang/String;ZZZZLjava/io/Closeable;)V",
      "acquire"
    },
    {"sun.nio.ch.FileChannelImpl#beginBlocking()V", "acquire"},
    {"sun.nio.ch.FileChannelImpl#endBlocking(Z)V", "acquire"},
    {"sun.nio.ch.FileChannelImpl#ensureOpen()V", "acquire"},
    {"sun.nio.ch.FileChannelImpl#implCloseChannel()V", "acquire"},
    {"sun.nio.ch.FileChannelImpl#implRead(Ljava/nio/ByteBuffer;)I", "acquire"},
    {
      "sun.nio.ch.FileChannelImpl#open(Ljava/io/FileDescriptor;Ljava/lang/String;ZZZZLjava/io/Closeable;)Ljava/nio/channels/FileChannel;",
      "acquire"
    },
    {"sun.nio.ch.FileChannelImpl#read(Ljava/nio/ByteBuffer;)I", "acquire"},
    {"sun.nio.ch.FileChannelImpl#setUninterruptible()V", "acquire"},
    {"sun.nio.ch.FileChannelImpl$Closer#<init>(Ljava/io/FileDescriptor;)V", "acquire"},
    {"sun.nio.ch.FileChannelImpl$Closer#run()V", "acquire"},
    {"sun.nio.ch.IOStatus#normalize(I)I", "acquire"},
    {"sun.nio.ch.IOUtil#acquireScope(Ljava/nio/ByteBuffer;Z)V", "acquire"},
    {"sun.nio.ch.IOUtil#bufferAddress(Ljava/nio/ByteBuffer;)J", "acquire"},
    {
      "sun.nio.ch.IOUtil#read(Ljava/io/FileDescriptor;Ljava/nio/ByteBuffer;JZILsun/nio/ch/NativeDispatcher;)I",
      "acquire"
    },
    {
      "sun.nio.ch.IOUtil#read(Ljava/io/FileDescriptor;Ljava/nio/ByteBuffer;JZZILsun/nio/ch/NativeDispatcher;)I",
      "acquire"
    },
    {
      "sun.nio.ch.IOUtil#readIntoNativeBuffer(Ljava/io/FileDescriptor;Ljava/nio/ByteBuffer;JZZILsun/nio/ch/NativeDispatcher;)I",
      "acquire"
    },
    {"sun.nio.ch.IOUtil#releaseScope(Ljava/nio/ByteBuffer;)V", "acquire"},
    {"sun.nio.ch.NativeThread#current()J", "acquire"},
    {"sun.nio.ch.NativeThread#current0()J", "acquire"},
    {"sun.nio.ch.NativeThread#isNativeThread(J)Z", "acquire"},
    {"sun.nio.ch.NativeThreadSet#<init>(I)V", "acquire"},
    {"sun.nio.ch.NativeThreadSet#add()I", "acquire"},
    {"sun.nio.ch.NativeThreadSet#remove(I)V", "acquire"},
    {"sun.nio.ch.NativeThreadSet#signalAndWait()V", "acquire"},
    {
      "sun.nio.ch.Streams#of(Ljava/nio/channels/ReadableByteChannel;)Ljava/io/InputStream;",
      "acquire"
    },
    {"sun.nio.ch.UnixFileDispatcherImpl#read(Ljava/io/FileDescriptor;JI)I", "acquire"},
    {"sun.nio.ch.UnixFileDispatcherImpl#read0(Ljava/io/FileDescriptor;JI)I", "acquire"},
    {"sun.nio.ch.Util#getTemporaryDirectBuffer(I)Ljava/nio/ByteBuffer;", "acquire"},
    {"sun.nio.ch.Util#isBufferTooLarge(I)Z", "acquire"},
    {"sun.nio.ch.Util#isBufferTooLarge(Ljava/nio/ByteBuffer;)Z", "acquire"},
    {"sun.nio.ch.Util#offerFirstTemporaryDirectBuffer(Ljava/nio/ByteBuffer;)V", "acquire"},
    {"sun.nio.ch.Util#unwrapIfAlignedSlice(Ljava/nio/ByteBuffer;)Ljava/nio/ByteBuffer;", "acquire"},
    {"sun.nio.ch.Util$1#initialValue()Ljava/lang/Object;", "acquire"},
    {"sun.nio.ch.Util$1#initialValue()Lsun/nio/ch/Util$BufferCache;", "acquire"},
    {"sun.nio.ch.Util$BufferCache#<init>()V", "acquire"},
    {"sun.nio.ch.Util$BufferCache#get(I)Ljava/nio/ByteBuffer;", "acquire"},
    {"sun.nio.ch.Util$BufferCache#isEmpty()Z", "acquire"},
    {"sun.nio.ch.Util$BufferCache#next(I)I", "acquire"},
    {"sun.nio.ch.Util$BufferCache#offerFirst(Ljava/nio/ByteBuffer;)Z", "acquire"},
    {"sun.nio.fs.NativeBuffer#address()J", "acquire"},
    {"sun.nio.fs.NativeBuffer#close()V", "acquire"},
    {"sun.nio.fs.NativeBuffer#owner()Ljava/lang/Object;", "acquire"},
    {"sun.nio.fs.NativeBuffer#release()V", "acquire"},
    {"sun.nio.fs.NativeBuffer#setOwner(Ljava/lang/Object;)V", "acquire"},
    {"sun.nio.fs.NativeBuffer#size()I", "acquire"},
    {"sun.nio.fs.NativeBuffers#copyCStringToNativeBuffer([BLsun/nio/fs/NativeBuffer;)V", "acquire"},
    {"sun.nio.fs.NativeBuffers#getNativeBufferFromCache(I)Lsun/nio/fs/NativeBuffer;", "acquire"},
    {"sun.nio.fs.NativeBuffers#releaseNativeBuffer(Lsun/nio/fs/NativeBuffer;)V", "acquire"},
    {
      "sun.nio.fs.UnixChannelFactory#newFileChannel(ILsun/nio/fs/UnixPath;Ljava/util/Set;I)Ljava/nio/channels/FileChannel;",
      "acquire"
    },
    {
      "sun.nio.fs.UnixChannelFactory#newFileChannel(Lsun/nio/fs/UnixPath;Ljava/util/Set;I)Ljava/nio/channels/FileChannel;",
      "acquire"
    },
    {
      "sun.nio.fs.UnixChannelFactory#open(ILsun/nio/fs/UnixPath;Lsun/nio/fs/UnixChannelFactory$Flags;I)Ljava/io/FileDescriptor;",
      "acquire"
    },
    {"sun.nio.fs.UnixChannelFactory$Flags#<init>()V", "acquire"},
    {
      "sun.nio.fs.UnixChannelFactory$Flags#toFlags(Ljava/util/Set;)Lsun/nio/fs/UnixChannelFactory$Flags;",
      "acquire"
    },
    {"sun.nio.fs.UnixFileAttributes#<init>()V", "acquire"},
    {
      "sun.nio.fs.UnixFileAttributes#getIfExists(Lsun/nio/fs/UnixPath;)Lsun/nio/fs/UnixFileAttributes;",
      "acquire"
    },
    {"sun.nio.fs.UnixFileAttributes#isRegularFile()Z", "acquire"},
    {
      "sun.nio.fs.UnixFileModeAttribute#toUnixMode(I[Ljava/nio/file/attribute/FileAttribute;)I",
      "acquire"
    },
    {
      "sun.nio.fs.UnixFileSystem#getPath(Ljava/lang/String;[Ljava/lang/String;)Ljava/nio/file/Path;",
      "acquire"
    },
    {"sun.nio.fs.UnixFileSystem#needToResolveAgainstDefaultDirectory()Z", "acquire"},
    {
      "sun.nio.fs.UnixFileSystem#normalizeJavaPath(Ljava/lang/String;)Ljava/lang/String;", "acquire"
    },
    {
      "sun.nio.fs.UnixFileSystem#normalizeNativePath(Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {"sun.nio.fs.UnixFileSystem#provider()Ljava/nio/file/spi/FileSystemProvider;", "acquire"},
    {
      "sun.nio.fs.UnixFileSystemProvider#newByteChannel(Ljava/nio/file/Path;Ljava/util/Set;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/channels/SeekableByteChannel;",
      "acquire"
    },
    {
      "sun.nio.fs.UnixFileSystemProvider#newFileChannel(Ljava/nio/file/Path;Ljava/util/Set;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/channels/FileChannel;",
      "acquire"
    },
    {
      "sun.nio.fs.UnixFileSystemProvider#readAttributesIfExists(Ljava/nio/file/Path;Ljava/lang/Class;[Ljava/nio/file/LinkOption;)Ljava/nio/file/attribute/BasicFileAttributes;",
      "acquire"
    },
    {
      "sun.nio.fs.UnixNativeDispatcher#copyToNativeBuffer(Lsun/nio/fs/UnixPath;)Lsun/nio/fs/NativeBuffer;",
      "acquire"
    },
    {"sun.nio.fs.UnixNativeDispatcher#open(Lsun/nio/fs/UnixPath;II)I", "acquire"},
    {"sun.nio.fs.UnixNativeDispatcher#open0(JII)I", "acquire"},
    {"sun.nio.fs.UnixNativeDispatcher#realpath(Lsun/nio/fs/UnixPath;)[B", "acquire"},
    {"sun.nio.fs.UnixNativeDispatcher#realpath0(J)[B", "acquire"},
    {"sun.nio.fs.UnixNativeDispatcher#stat0(JLsun/nio/fs/UnixFileAttributes;)I", "acquire"},
    {
      "sun.nio.fs.UnixNativeDispatcher#stat2(Lsun/nio/fs/UnixPath;Lsun/nio/fs/UnixFileAttributes;)I",
      "acquire"
    },
    {"sun.nio.fs.UnixPath#<init>(Lsun/nio/fs/UnixFileSystem;Ljava/lang/String;)V", "acquire"},
    {"sun.nio.fs.UnixPath#<init>(Lsun/nio/fs/UnixFileSystem;[B)V", "acquire"},
    {"sun.nio.fs.UnixPath#checkNotNul(Ljava/lang/String;C)V", "acquire"},
    {"sun.nio.fs.UnixPath#encode(Lsun/nio/fs/UnixFileSystem;Ljava/lang/String;)[B", "acquire"},
    {"sun.nio.fs.UnixPath#getByteArrayForSysCalls()[B", "acquire"},
    {"sun.nio.fs.UnixPath#getFileSystem()Ljava/nio/file/FileSystem;", "acquire"},
    {"sun.nio.fs.UnixPath#getFileSystem()Lsun/nio/fs/UnixFileSystem;", "acquire"},
    {"sun.nio.fs.UnixPath#hashCode()I", "acquire"},
    {"sun.nio.fs.UnixPath#isAbsolute()Z", "acquire"},
    {"sun.nio.fs.UnixPath#isEmpty()Z", "acquire"},
    {"sun.nio.fs.UnixPath#normalizeAndCheck(Ljava/lang/String;)Ljava/lang/String;", "acquire"},
    {"sun.nio.fs.UnixPath#toAbsolutePath()Lsun/nio/fs/UnixPath;", "acquire"},
    {"sun.nio.fs.UnixPath#toRealPath([Ljava/nio/file/LinkOption;)Ljava/nio/file/Path;", "acquire"},
    {"sun.nio.fs.UnixPath#toString()Ljava/lang/String;", "acquire"},
    {"sun.nio.fs.UnixPath#toUnixPath(Ljava/nio/file/Path;)Lsun/nio/fs/UnixPath;", "acquire"},
    {"sun.nio.fs.Util#followLinks([Ljava/nio/file/LinkOption;)Z", "acquire"},
    {"sun.nio.fs.Util#jnuEncoding()Ljava/nio/charset/Charset;", "acquire"},
    {"sun.nio.fs.Util#toString([B)Ljava/lang/String;", "acquire"},
    {
      "sun.reflect.misc.ReflectUtil#ensureMemberAccess(Ljava/lang/Class;Ljava/lang/Class;Ljava/lang/Object;I)V",
      "acquire"
    },
    {
      "sun.security.action.GetPropertyAction#privilegedGetProperty(Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {
      "sun.security.action.GetPropertyAction#privilegedGetProperty(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {"sun.security.util.Debug#getInstance(Ljava/lang/String;)Lsun/security/util/Debug;", "acquire"},
    {
      "sun.security.util.Debug#getInstance(Ljava/lang/String;Ljava/lang/String;)Lsun/security/util/Debug;",
      "acquire"
    },
    {"sun.security.util.Debug#isOn(Ljava/lang/String;)Z", "acquire"},
    {"sun.security.util.SecurityProperties#<clinit>()V", "acquire"},
    {
      "sun.security.util.SecurityProperties#getOverridableProperty(Ljava/lang/String;)Ljava/lang/String;",
      "acquire"
    },
    {"sun.security.util.SecurityProperties#includedInExceptions(Ljava/lang/String;)Z", "acquire"},
  };

  private static final Map<String, String> PATH_BY_METHOD = index();

  private static Map<String, String> index() {
    Map<String, String> paths = new HashMap<String, String>();
    for (String[] entry : JDK_METHODS) {
      paths.put(entry[0], entry[1]);
    }
    return Collections.unmodifiableMap(paths);
  }

  /**
   * Why Weir refuses to limit a method a config pattern matched.
   *
   * @param binaryName the method's class, {@code java.util.concurrent.atomic.LongAdder}
   * @param methodName its name
   * @param descriptor its descriptor, {@code (J)V}
   * @return the reason, for the pattern's one report line; null if the method can be limited
   */
  static String why(String binaryName, String methodName, String descriptor) {
    if (binaryName.startsWith("java.lang.")) {
      return "java.lang is the JVM's own machinery (classes, strings, threads), which Weir's"
          + " limiting, weaving and logging run on";
    }
    if (isWeirs(binaryName)) {
      return "it is part of Weir";
    }
    String path = PATH_BY_METHOD.get(binaryName + "#" + methodName + descriptor);
    if (path == null) {
      return null;
    }
    if (path.equals(ACQUIRE)) {
      return "Weir's acquire path runs it on limited calls before it can tell the call is its"
          + " own, so a limit there would limit Weir itself";
    }
    if (path.equals(WEAVE)) {
      return "the JVM runs it to hand each loading class to Weir, before Weir can tell the call is"
          + " its own";
    }
    return "Weir's logging runs it before it can tell the call is its own";
  }

  /**
   * Whether a class is Weir's own: the agent's ({@code dev.weir.agent} and below, the libraries it
   * carries relocated there included) or the API's ({@code dev.weir} itself). Other packages under
   * {@code dev.weir} (Weir's examples and tests) are applications like any other.
   */
  static boolean isWeirs(String binaryName) {
    return binaryName.startsWith("dev.weir.agent.")
        || binaryName.startsWith("dev.weir.") && binaryName.indexOf('.', "dev.weir.".length()) < 0;
  }

  /**
   * The methods of {@link #JDK_METHODS}, for tests.
   *
   * @return {@code binary.Class#name(descriptor)} of each
   */
  static java.util.List<String> jdkMethods() {
    String[] names = new String[JDK_METHODS.length];
    for (int i = 0; i < names.length; i++) {
      names[i] = JDK_METHODS[i][0];
    }
    return Collections.unmodifiableList(Arrays.asList(names));
  }
}
