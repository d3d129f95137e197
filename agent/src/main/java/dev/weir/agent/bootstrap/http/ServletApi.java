package dev.weir.agent.bootstrap.http;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * The servlet API as one container loaded it, called through method handles on its own interfaces
 * ({@code javax.servlet.http.HttpServletRequest} or {@code jakarta.servlet.http.HttpServletRequest}
 * of the request's class, and the response and cookie types of the same loader): Weir carries no
 * copy of the API and calls exactly the methods the container implements. One per API loader and
 * namespace, found once per request class ({@link #of}). Immutable and thread-safe.
 */
final class ServletApi {
  private static final String[] NAMESPACES = {"jakarta", "javax"};

  /** The API of each request class; {@link #NONE} for a request that is not an HTTP request. */
  private static final ClassValue<ServletApi> BY_REQUEST_CLASS =
      new ClassValue<ServletApi>() {
        @Override
        protected ServletApi computeValue(Class<?> type) {
          for (String namespace : NAMESPACES) {
            Class<?> api = supertype(type, namespace + ".servlet.http.HttpServletRequest");
            if (api != null) {
              return BY_API.get(api);
            }
          }
          return NONE;
        }
      };

  /** The API of each {@code HttpServletRequest} interface: one per loader that holds the API. */
  private static final ClassValue<ServletApi> BY_API =
      new ClassValue<ServletApi>() {
        @Override
        protected ServletApi computeValue(Class<?> requestType) {
          try {
            return new ServletApi(requestType);
          } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return new ServletApi(
                requestType.getName()
                    + " cannot be called (http entries need Servlet 3.0 or later): "
                    + e);
          }
        }
      };

  /**
   * For a plain {@code ServletRequestWrapper} or {@code ServletResponseWrapper} (one that is no
   * HTTP request or response itself), the handle of its {@code getRequest()} or {@code
   * getResponse()}; null for any other class.
   */
  private static final ClassValue<MethodHandle> UNWRAP =
      new ClassValue<MethodHandle>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
          for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (String namespace : NAMESPACES) {
              try {
                if (c.getName().equals(namespace + ".servlet.ServletRequestWrapper")) {
                  return handle(c, "getRequest");
                }
                if (c.getName().equals(namespace + ".servlet.ServletResponseWrapper")) {
                  return handle(c, "getResponse");
                }
              } catch (ReflectiveOperationException e) {
                return null;
              }
            }
          }
          return null;
        }
      };

  /** The {@code Servlet.service} of each servlet class, through its API's interface. */
  private static final ClassValue<MethodHandle> SERVICE =
      new ClassValue<MethodHandle>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
          return apiMethod(type, "Servlet", "service", "ServletRequest", "ServletResponse");
        }
      };

  /** The {@code Filter.doFilter} of each filter class, through its API's interface. */
  private static final ClassValue<MethodHandle> DO_FILTER =
      new ClassValue<MethodHandle>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
          return apiMethod(
              type, "Filter", "doFilter", "ServletRequest", "ServletResponse", "FilterChain");
        }
      };

  /**
   * A method of the servlet API's interface {@code api} (of either namespace) that {@code type}
   * implements, its parameters of the API's types named.
   *
   * @throws IllegalStateException if the type implements no such interface, or it cannot be called
   */
  private static MethodHandle apiMethod(
      Class<?> type, String api, String method, String... parameters) {
    for (String namespace : NAMESPACES) {
      Class<?> owner = supertype(type, namespace + ".servlet." + api);
      if (owner != null) {
        try {
          Class<?>[] types = new Class<?>[parameters.length];
          for (int i = 0; i < types.length; i++) {
            types[i] =
                Class.forName(
                    namespace + ".servlet." + parameters[i], false, owner.getClassLoader());
          }
          return handle(owner, method, types);
        } catch (ReflectiveOperationException | LinkageError e) {
          throw new IllegalStateException(
              "cannot call " + type.getName() + "#" + method + ": " + e, e);
        }
      }
    }
    throw new IllegalStateException(
        type.getName() + " is no " + api.toLowerCase(java.util.Locale.ROOT));
  }

  /**
   * The {@code ServletRequest.getAttribute} of each class, HTTP request or not; null for a class
   * that is no {@code ServletRequest}.
   */
  private static final ClassValue<MethodHandle> GET_ATTRIBUTE =
      new ClassValue<MethodHandle>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
          for (String namespace : NAMESPACES) {
            Class<?> plain = supertype(type, namespace + ".servlet.ServletRequest");
            if (plain != null) {
              try {
                return handle(plain, "getAttribute", String.class);
              } catch (ReflectiveOperationException | LinkageError e) {
                return null;
              }
            }
          }
          return null;
        }
      };

  /**
   * {@code Filter.doFilter} of a filter's class, as a handle taking and returning {@code Object}s.
   *
   * @param filter a filter
   * @return the handle
   * @throws IllegalStateException if the filter's API cannot be called
   */
  static MethodHandle doFilterOf(Object filter) {
    return DO_FILTER.get(filter.getClass());
  }

  /**
   * {@code ServletRequest.getAttribute} of a request's class, whether or not it is an HTTP request
   * (a plain wrapper a filter put around one), as a handle taking and returning {@code Object}s.
   *
   * @param request a request
   * @return the handle; null if it is no {@code ServletRequest} of either namespace
   */
  static MethodHandle getAttributeOf(Object request) {
    return GET_ATTRIBUTE.get(request.getClass());
  }

  /**
   * {@code Servlet.service} of a servlet's class, as a handle taking and returning {@code Object}s.
   *
   * @param servlet a servlet
   * @return the handle
   * @throws IllegalStateException if the servlet's API cannot be called
   */
  static MethodHandle serviceOf(Object servlet) {
    return SERVICE.get(servlet.getClass());
  }

  /** The API of a request that is not an HTTP request: it has no path, so no entry applies. */
  static final ServletApi NONE = new ServletApi("not an HTTP request");

  /** The namespace's attribute prefix: {@code javax.servlet} or {@code jakarta.servlet}. */
  final String prefix;

  /** Why this API cannot be used, or null if it can. */
  final String broken;

  final MethodHandle dispatcherType;
  final MethodHandle servletPath;
  final MethodHandle pathInfo;
  final MethodHandle method;
  final MethodHandle getAttribute;
  final MethodHandle setAttribute;
  final MethodHandle remoteAddr;
  final MethodHandle header;
  final MethodHandle headers;
  final MethodHandle queryString;
  final MethodHandle cookies;
  final MethodHandle cookieName;
  final MethodHandle cookieValue;
  final MethodHandle userPrincipal;
  final MethodHandle isAsyncStarted;
  final MethodHandle isCommitted;
  final MethodHandle resetBuffer;
  final MethodHandle setStatus;
  final MethodHandle setHeader;
  final MethodHandle setContentType;
  final MethodHandle setContentLength;
  final MethodHandle outputStream;
  final MethodHandle writer;
  final MethodHandle isAsyncSupported;
  final MethodHandle startAsync;
  final MethodHandle startAsyncWith;
  final MethodHandle asyncContext;
  final MethodHandle setTimeout;
  final MethodHandle addListener;
  final MethodHandle dispatch;
  final MethodHandle complete;

  /** The API's {@code HttpServletResponse}; null for {@link #NONE}. */
  final Class<?> responseType;

  /** The API's {@code AsyncListener}; null for {@link #NONE}. */
  private final Class<?> asyncListenerType;

  private ServletApi(String broken) {
    this.broken = broken;
    this.prefix = null;
    dispatcherType = servletPath = pathInfo = method = getAttribute = setAttribute = null;
    remoteAddr = header = headers = queryString = cookies = cookieName = cookieValue = null;
    userPrincipal =
        isAsyncStarted = isCommitted = resetBuffer = setStatus = setHeader = setContentType = null;
    setContentLength = outputStream = writer = null;
    isAsyncSupported = startAsync = startAsyncWith = asyncContext = null;
    setTimeout = addListener = dispatch = complete = null;
    responseType = asyncListenerType = null;
  }

  private ServletApi(Class<?> request) throws ReflectiveOperationException {
    String namespace = request.getName().substring(0, request.getName().indexOf('.'));
    ClassLoader loader = request.getClassLoader();
    Class<?> plainRequest = Class.forName(namespace + ".servlet.ServletRequest", false, loader);
    Class<?> response =
        Class.forName(namespace + ".servlet.http.HttpServletResponse", false, loader);
    Class<?> plainResponse = Class.forName(namespace + ".servlet.ServletResponse", false, loader);
    Class<?> cookie = Class.forName(namespace + ".servlet.http.Cookie", false, loader);
    this.broken = null;
    this.prefix = namespace + ".servlet";
    this.responseType = response;
    dispatcherType = handle(plainRequest, "getDispatcherType");
    servletPath = handle(request, "getServletPath");
    pathInfo = handle(request, "getPathInfo");
    method = handle(request, "getMethod");
    getAttribute = handle(plainRequest, "getAttribute", String.class);
    setAttribute = handle(plainRequest, "setAttribute", String.class, Object.class);
    remoteAddr = handle(plainRequest, "getRemoteAddr");
    header = handle(request, "getHeader", String.class);
    headers = handle(request, "getHeaders", String.class);
    queryString = handle(request, "getQueryString");
    cookies = handle(request, "getCookies");
    cookieName = handle(cookie, "getName");
    cookieValue = handle(cookie, "getValue");
    userPrincipal = handle(request, "getUserPrincipal");
    isAsyncStarted = handle(plainRequest, "isAsyncStarted");
    isCommitted = handle(plainResponse, "isCommitted");
    resetBuffer = handle(plainResponse, "resetBuffer");
    setStatus = handle(response, "setStatus", int.class);
    setHeader = handle(response, "setHeader", String.class, String.class);
    setContentType = handle(plainResponse, "setContentType", String.class);
    setContentLength = handle(plainResponse, "setContentLength", int.class);
    outputStream = handle(plainResponse, "getOutputStream");
    writer = handle(plainResponse, "getWriter");
    Class<?> contextType = Class.forName(namespace + ".servlet.AsyncContext", false, loader);
    asyncListenerType = Class.forName(namespace + ".servlet.AsyncListener", false, loader);
    isAsyncSupported = handle(plainRequest, "isAsyncSupported");
    startAsync = handle(plainRequest, "startAsync");
    startAsyncWith = handle(plainRequest, "startAsync", plainRequest, plainResponse);
    asyncContext = handle(plainRequest, "getAsyncContext");
    setTimeout = handle(contextType, "setTimeout", long.class);
    addListener = handle(contextType, "addListener", asyncListenerType);
    dispatch = handle(contextType, "dispatch");
    complete = handle(contextType, "complete");
  }

  /**
   * An {@code AsyncListener} of this API that tells {@code events} what the container reports of an
   * asynchronous request (a {@link java.lang.reflect.Proxy} of the API's interface: Weir carries no
   * class of the API). Its {@code equals} and {@code hashCode} are identity's.
   *
   * @param events told {@code onComplete}, {@code onTimeout} and {@code onError} by name, on the
   *     container's thread; {@code onStartAsync} is not passed on
   * @return the listener, for {@link #addListener}
   */
  Object asyncListener(final AsyncEvents events) {
    return Proxy.newProxyInstance(
        asyncListenerType.getClassLoader(),
        new Class<?>[] {asyncListenerType},
        new InvocationHandler() {
          @Override
          public Object invoke(Object proxy, Method method, Object[] args) {
            String name = method.getName();
            if (name.equals("equals")) {
              return proxy == args[0];
            }
            if (name.equals("hashCode")) {
              return System.identityHashCode(proxy);
            }
            if (name.equals("toString")) {
              return "Weir's wait for a departure slot";
            }
            if (!name.equals("onStartAsync")) {
              events.happened(name);
            }
            return null;
          }
        });
  }

  /** What an {@link #asyncListener} passes on. */
  interface AsyncEvents {
    /**
     * The container reported an event of the asynchronous request.
     *
     * @param event {@code onComplete}, {@code onTimeout} or {@code onError}
     */
    void happened(String event);
  }

  /**
   * The API a request's class implements.
   *
   * @param request the request a servlet was called with
   * @return its API; one whose {@link #broken} says why if the class is no HTTP request or its API
   *     cannot be called
   */
  static ServletApi of(Object request) {
    return BY_REQUEST_CLASS.get(request.getClass());
  }

  /**
   * What a plain wrapper wraps ({@code ServletRequestWrapper.getRequest()}, {@code
   * ServletResponseWrapper.getResponse()}).
   *
   * @param message a request or a response
   * @return the request or response it wraps; null if it is no plain wrapper
   * @throws Throwable what {@code getRequest()} or {@code getResponse()} throws
   */
  static Object unwrapped(Object message) throws Throwable {
    MethodHandle h = UNWRAP.get(message.getClass());
    return h == null ? null : (Object) h.invokeExact(message);
  }

  /** A public method of an API interface, as a handle taking and returning {@code Object}s. */
  private static MethodHandle handle(Class<?> owner, String name, Class<?>... parameters)
      throws ReflectiveOperationException {
    Method m = owner.getMethod(name, parameters);
    return MethodHandles.publicLookup()
        .unreflect(m)
        .asType(MethodType.genericMethodType(parameters.length + 1));
  }

  /** The supertype of {@code type} of this name (a class or an interface), or null. */
  private static Class<?> supertype(Class<?> type, String name) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      Class<?> found = inInterfaces(c, name);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  private static Class<?> inInterfaces(Class<?> type, String name) {
    for (Class<?> i : type.getInterfaces()) {
      if (i.getName().equals(name)) {
        return i;
      }
      Class<?> found = inInterfaces(i, name);
      if (found != null) {
        return found;
      }
    }
    return null;
  }
}
