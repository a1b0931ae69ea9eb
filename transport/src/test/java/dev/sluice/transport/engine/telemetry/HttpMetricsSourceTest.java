package dev.sluice.transport.engine.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.transport.metrics.ScrapeFailure;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code GET /metrics} over loopback with the JDK client, against the JDK's server answering every way it can. */
class HttpMetricsSourceTest {
    private static final CountDownLatch RELEASE = new CountDownLatch(1);
    private static final ExecutorService EXECUTOR = Executors.newVirtualThreadPerTaskExecutor();
    /** Far above any stall of a busy machine: a test that expects an answer never sees this timeout instead. */
    private static final Duration PATIENT = Duration.ofSeconds(30);
    private static HttpServer server;

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(EXECUTOR);
        server.createContext("/metrics", exchange -> answer(exchange, 200, EngineExpositions.VLLM_V0));
        server.createContext("/down/metrics", exchange -> answer(exchange, 503, "Service Unavailable"));
        server.createContext("/huge/metrics", HttpMetricsSourceTest::huge);
        server.createContext("/stuck/metrics", HttpMetricsSourceTest::stuck);
        server.start();
    }

    @AfterAll
    static void stop() {
        RELEASE.countDown();
        server.stop(0);
        EXECUTOR.shutdownNow();
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        try (exchange) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }

    private static void huge(HttpExchange exchange) throws IOException {
        try (exchange; OutputStream out = exchange.getResponseBody()) {
            exchange.sendResponseHeaders(200, 0);
            byte[] line = "process_open_fds 12.0\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
            for (long sent = 0; sent <= HttpMetricsSource.MAX_BYTES; sent += line.length) {
                out.write(line);
            }
        } catch (IOException e) {
            // The client hung up once it had enough: expected.
        }
    }

    private static void stuck(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.sendResponseHeaders(200, 0);
            exchange.getResponseBody().write("vllm:num_requests_running 1\n".getBytes(StandardCharsets.UTF_8));
            exchange.getResponseBody().flush();
            RELEASE.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A source with the {@link #PATIENT} timeout; only the answer that never ends is given a short one. */
    private static HttpMetricsSource source(String path) {
        return source(path, PATIENT);
    }

    private static HttpMetricsSource source(String path, Duration timeout) {
        return new HttpMetricsSource(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path), timeout);
    }

    @Test
    void shouldFetchTheExpositionText() throws Exception {
        try (HttpMetricsSource source = source("/metrics")) {
            assertEquals(EngineExpositions.VLLM_V0, source.fetch());
        }
    }

    @Test
    void shouldFailWithTheStatusOfAnAnswerThatIsNot2xx() {
        try (HttpMetricsSource source = source("/down/metrics")) {
            ScrapeException error = assertThrows(ScrapeException.class, source::fetch);
            assertEquals(ScrapeFailure.HTTP_STATUS, error.failure());
            assertTrue(error.getMessage().endsWith("/down/metrics answered HTTP 503"), error.getMessage());
        }
    }

    @Test
    void shouldRefuseABodyOverTheLimit() {
        try (HttpMetricsSource source = source("/huge/metrics")) {
            ScrapeException error = assertThrows(ScrapeException.class, source::fetch);
            assertEquals(ScrapeFailure.UNPARSABLE, error.failure());
            assertTrue(error.getMessage().endsWith("answered more than " + HttpMetricsSource.MAX_BYTES + " bytes"),
                error.getMessage());
        }
    }

    @Test
    void shouldGiveUpOnABodyThatNeverEnds() {
        try (HttpMetricsSource source = source("/stuck/metrics", Duration.ofMillis(500))) {
            ScrapeException error = assertThrows(ScrapeException.class, source::fetch);
            assertEquals(ScrapeFailure.UNREACHABLE, error.failure());
            assertTrue(error.getMessage().endsWith("was not answered whole within PT1S"), error.getMessage());
        }
    }

    @Test
    void shouldFailAsUnreachableWhenNothingListens() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        try (HttpMetricsSource source = new HttpMetricsSource(URI.create("http://127.0.0.1:" + port + "/metrics"),
            PATIENT)) {
            ScrapeException error = assertThrows(ScrapeException.class, source::fetch);
            assertEquals(ScrapeFailure.UNREACHABLE, error.failure());
            assertEquals("cannot connect to http://127.0.0.1:" + port + "/metrics (connection refused)",
                error.getMessage());
        }
    }

    @Test
    void shouldSayWhenTheHostNameHasNoAddress() {
        // How the JDK client fails http://sluice-no-such-engine.invalid:8000/metrics (no lookup in the test).
        ConnectException unresolved = new ConnectException();
        unresolved.initCause(new UnresolvedAddressException());
        URI uri = URI.create("http://sluice-no-such-engine.invalid:8000/metrics");
        ScrapeException error = HttpMetricsSource.failure(uri, PATIENT, unresolved);
        assertEquals(ScrapeFailure.UNREACHABLE, error.failure());
        assertEquals("cannot connect to " + uri + " (its host name has no address)", error.getMessage());
    }

    @Test
    void shouldFindTheMetricsBesideTheApiRoot() {
        assertEquals(URI.create("http://h:8000/metrics"),
            HttpMetricsSource.besideApi(URI.create("http://h:8000/v1/completions")));
        assertEquals(URI.create("https://gw.example/vllm/a/metrics"),
            HttpMetricsSource.besideApi(URI.create("https://gw.example/vllm/a/v1/completions")));
    }
}
