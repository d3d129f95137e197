package dev.weir.examples;

import dev.weir.LimitKey;
import dev.weir.RateLimitedException;
import dev.weir.TokenBucket;

/** The business side of {@link HttpQuotas}: a quote per client, and prices that can degrade. */
public class QuoteService {

  /**
   * A quote, limited per client: each client gets bursts of 5, then one a second.
   *
   * @param clientId the caller, one token bucket each
   * @param symbol the instrument
   * @return the quote
   * @throws RateLimitedException when this client's bucket is empty (under the Weir agent)
   */
  @TokenBucket(name = "quotes-per-client", rate = 1, capacity = 5)
  public String quote(@LimitKey String clientId, String symbol) {
    return symbol + " 101.25 for " + clientId;
  }

  /**
   * Live prices from an expensive upstream: bursts of 20, then one a second for everyone; past
   * that, the cached copy.
   *
   * @return live prices, or cached ones when limited
   */
  @TokenBucket(name = "live-prices", rate = 1, capacity = 20, fallback = "cachedPrices")
  public String prices() {
    return "live prices";
  }

  private String cachedPrices(RateLimitedException limited) {
    return "cached prices (live again in " + limited.retryAfter().toMillis() + " ms)";
  }
}
