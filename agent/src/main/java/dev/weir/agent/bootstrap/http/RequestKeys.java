package dev.weir.agent.bootstrap.http;

import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/**
 * The key a request is charged under by an {@code http} entry keyed by {@code client}, {@code
 * user}, {@code header:NAME}, {@code param:NAME} or {@code cookie:NAME} (docs/web-apps.md). The
 * {@code client} key is read from the container's own request beneath every request wrapper, so no
 * filter chooses it, through the {@code http.trustedProxies}; an IPv6 client is keyed by its
 * network of {@code http.ipv6PrefixLength} bits ({@code 2001:db8:0:0:0:0:0:0/64}). A query
 * parameter is read from the query string alone: a request body is never read.
 *
 * <p>Stateless and thread-safe; each method reads the request through its servlet API's handles
 * ({@link ServletApi}) and throws what they throw, unchecked.
 */
final class RequestKeys {
  private static final String CLIENT_HEADER = "X-Forwarded-For";

  private RequestKeys() {}

  /**
   * The key a rule charges a request under: null for a rule of one bucket; empty if the rule is
   * keyed and the request's key is missing or empty (it is not counted).
   */
  static String keyFor(HttpGate.Settings s, ServletApi api, Object request, HttpRule rule) {
    if (rule.keyKind == HttpRule.ONE_BUCKET) {
      return null;
    }
    String key = key(s, api, request, rule);
    return key == null ? "" : key;
  }

  /** The request's key for a rule; null or empty if it has none. */
  static String key(HttpGate.Settings s, ServletApi api, Object request, HttpRule rule) {
    switch (rule.keyKind) {
      case HttpRule.CLIENT:
        return client(s, api, request);
      case HttpRule.USER:
        Object user = HttpGate.call(api.userPrincipal, request);
        return user == null ? null : ((Principal) user).getName();
      case HttpRule.HEADER:
        return (String) HttpGate.call(api.header, request, rule.keyName);
      case HttpRule.PARAM:
        return queryParameter((String) HttpGate.call(api.queryString, request), rule.keyName);
      case HttpRule.COOKIE:
        Object cookies = HttpGate.call(api.cookies, request);
        if (cookies != null) {
          for (Object cookie : (Object[]) cookies) {
            if (rule.keyName.equals(HttpGate.call(api.cookieName, cookie))) {
              return (String) HttpGate.call(api.cookieValue, cookie);
            }
          }
        }
        return null;
      default:
        throw new IllegalStateException("unknown key kind " + rule.keyKind);
    }
  }

  /**
   * The client's address: the connection's; or, if that is a trusted proxy, the last {@code
   * X-Forwarded-For} hop that is not one (nginx's {@code real_ip_recursive}), never a hop the
   * client could have written unless every proxy after it is trusted. Both are read from the
   * container's own request, beneath every {@code ServletRequestWrapper} (a filter that rewrites
   * the remote address from a header, as Spring's {@code ForwardedHeaderFilter} does, cannot choose
   * the key; the gate sits before the filters besides, where no wrapper of any other kind can be).
   * An IPv6 address is keyed by its network of {@code http.ipv6PrefixLength} bits.
   */
  private static String client(HttpGate.Settings s, ServletApi api, Object request) {
    Object own = containerRequest(request);
    ServletApi ownApi = own == request ? api : ServletApi.of(own);
    if (ownApi != ServletApi.NONE && ownApi.broken == null) {
      api = ownApi;
      request = own;
    }
    String remote = (String) HttpGate.call(api.remoteAddr, request);
    if (remote == null) {
      return null;
    }
    String client = remote;
    byte[] address = AddressBlock.bytesOf(remote); // each hop is parsed once
    if (s.proxies.length > 0 && trusted(s, address)) {
      List<String> hops = new ArrayList<String>();
      Object values = HttpGate.call(api.headers, request, CLIENT_HEADER);
      if (values != null) {
        for (Enumeration<?> e = (Enumeration<?>) values; e.hasMoreElements(); ) {
          for (String hop : String.valueOf(e.nextElement()).split(",")) {
            if (!hop.trim().isEmpty()) {
              hops.add(hop.trim());
            }
          }
        }
      }
      for (int i = hops.size() - 1; i >= 0; i--) {
        client = hops.get(i);
        address = AddressBlock.bytesOf(client);
        if (!trusted(s, address)) {
          break;
        }
      }
    }
    // as a key: canonical if it is an IP literal, else as given
    if (address == null) {
      return client.trim();
    }
    if (address.length == 16 && s.ipv6Prefix < 128) {
      return AddressBlock.canonical(AddressBlock.mask(address, s.ipv6Prefix)) + "/" + s.ipv6Prefix;
    }
    return AddressBlock.canonical(address);
  }

  /** The innermost request beneath every {@code ServletRequestWrapper}: the container's own. */
  private static Object containerRequest(Object request) {
    Object r = request;
    for (int depth = 0; ; depth++) {
      Object inner = HttpGate.unwrap(r);
      if (inner == null) {
        return r;
      }
      if (depth == HttpGate.MAX_WRAPPERS) {
        throw new IllegalStateException(
            "Weir's http limits cannot see through more than "
                + HttpGate.MAX_WRAPPERS
                + " request wrappers to the client's address");
      }
      r = inner;
    }
  }

  private static boolean trusted(HttpGate.Settings s, byte[] address) {
    for (AddressBlock block : s.proxies) {
      if (block.contains(address)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The first value of a query parameter, decoded as a form is ({@code +} is a space), read from
   * the query string alone: a request body is never read.
   *
   * @param query the raw query string, or null
   * @param name the parameter's name
   * @return the value; "" for a name without {@code =}; null if absent or not decodable
   */
  static String queryParameter(String query, String name) {
    if (query == null) {
      return null;
    }
    for (String part : query.split("&")) {
      int eq = part.indexOf('=');
      String rawName = eq < 0 ? part : part.substring(0, eq);
      String decodedName = decode(rawName);
      if (name.equals(decodedName)) {
        return eq < 0 ? "" : decode(part.substring(eq + 1));
      }
    }
    return null;
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, "UTF-8");
    } catch (UnsupportedEncodingException | IllegalArgumentException e) {
      return null; // a malformed escape: not the parameter
    }
  }
}
