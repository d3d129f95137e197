package dev.weir.examples;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * A small web app on an embedded Tomcat, written as if rate limits did not exist: an API under
 * {@code /api} and a health check. {@code examples/weir-web.yaml} limits its API per client from
 * outside its code:
 *
 * <pre>
 * java -javaagent:agent/target/weir-agent.jar=config=examples/weir-web.yaml \
 *     -cp examples/target/weir-examples.jar dev.weir.examples.LegacyWebApp
 * </pre>
 *
 * <p>It serves on 127.0.0.1:8080 (or the port given as its argument; 0 picks a free one) until
 * stopped.
 */
public final class LegacyWebApp {
  private LegacyWebApp() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(Files.createTempDirectory("legacy-web").toString());
    Connector connector = new Connector();
    connector.setPort(port);
    connector.setProperty("address", "127.0.0.1");
    tomcat.setConnector(connector);
    Context context = tomcat.addContext("", null);
    Tomcat.addServlet(context, "orders", new Orders());
    context.addServletMappingDecoded("/api/*", "orders");
    Tomcat.addServlet(context, "health", new Health());
    context.addServletMappingDecoded("/health", "health");
    tomcat.start();
    if (connector.getLocalPort() < 0) { // Tomcat logged why (a port in use, say)
      System.err.println(
          "cannot serve on 127.0.0.1:" + port + ": give a free port as the argument (0: any)");
      tomcat.stop();
      tomcat.destroy();
      System.exit(1);
    }
    System.out.println(
        "serving http://127.0.0.1:"
            + connector.getLocalPort()
            + "/api/orders and /health (Ctrl-C stops)");
    tomcat.getServer().await();
  }

  /** The API: the orders of the day. */
  static final class Orders extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      res.setContentType("application/json");
      res.getWriter().write("[{\"id\":1,\"item\":\"widget\"},{\"id\":2,\"item\":\"gadget\"}]\n");
    }
  }

  /** A health check, which a load balancer calls as often as it likes. */
  static final class Health extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      res.setContentType("text/plain");
      res.getWriter().write("ok\n");
    }
  }
}
