package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.testing.RawHttp;
import io.helidon.http.HeaderNames;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Trust and bounded state through real HTTP: privileged headers from clients outside {@code --trusted-source} are
 * ignored and counted, honoured from inside and by default; the live-request limit (the overload status), the body
 * limit (413) and Helidon's header limit (431) answer clear statuses; errors carry no plugin-private text;
 * {@code /metrics} does not grow with distinct request, session or tenant ids.
 */
class TrustAndLimitsSystemTest {
    private static final String MODEL = "trust-model";
    private static final byte[] BODY = ("{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\",\"max_tokens\":2}")
        .getBytes(StandardCharsets.UTF_8);
    private static final Map<String, String> PRIVILEGED = Map.of("x-tenant", "overload",
        "x-dynamo-request-priority", "1000", "x-dynamo-request-strict-priority", "high",
        "x-dynamo-meta-policy-class", "nope", "x-dynamo-session-id", "s-1");

    /** Rejects the tenant {@code overload} with plugin-private text in the diagnostic; admits everyone else. */
    static final class TenantGate implements RequestClassifier {
        @Override
        public Classification classify(ClassifyRequest request) {
            if ("overload".equals(request.tenant())) {
                return Classification.reject(AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED)
                    .diagnostic("plugin-private: tenant budget table row 42"));
            }
            return Classification.admit(request);
        }
    }

    private static Frontend start(List<String> trusted, RouterContext router, double speedup) throws Exception {
        return Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 4096, 16, 529,
            HeaderNames.create("x-tenant"), Duration.ofSeconds(1), router.classifierFactory(c -> new TenantGate()),
            new EngineSetup.Simulated(new SimEngineContext().numGpuBlocks(4096).blockSize(16)
                .speedupRatio(speedup), 1), null, TrustedSources.of(trusted)));
    }

    @Test
    void shouldIgnoreAndCountPrivilegedHeadersFromAnUntrustedClient() throws Exception {
        try (Frontend frontend = start(List.of("10.0.0.0/8", "fd00::/8"), new RouterContext(), 50)) {
            RawHttp.Response response = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions",
                PRIVILEGED, BODY));
            assertEquals(200, response.status(), "tenant, class and priorities ignored: " + response.text());
            assertEquals(5, sample(metrics(frontend), "sluice_untrusted_headers_total"));
        }
    }

    @Test
    void shouldHonourPrivilegedHeadersFromATrustedClientAndByDefault() throws Exception {
        for (List<String> trusted : List.of(List.of("127.0.0.0/8"), List.<String>of())) {
            try (Frontend frontend = start(trusted, new RouterContext(), 50)) {
                RawHttp.Response badHeader = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions",
                    PRIVILEGED, BODY));
                assertEquals(400, badHeader.status(), badHeader.text());
                RawHttp.Response overload = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions",
                    Map.of("x-tenant", "overload"), BODY));
                assertEquals(529, overload.status(), overload.text());
                assertFalse(overload.text().contains("plugin-private"), overload.text());
                assertFalse(overload.text().contains("\tat "), overload.text());
                assertEquals(0, sample(metrics(frontend), "sluice_untrusted_headers_total"));
            }
        }
    }

    @Test
    void shouldAnswerTheOverloadStatusBeyondTheLiveLimitAndReleaseOnDisconnect() throws Exception {
        try (Frontend frontend = start(List.of(), new RouterContext().maxLiveRequests(2), 1)) {
            List<Socket> held = List.of(holdStream(frontend.port()), holdStream(frontend.port()));
            try {
                RawHttp.Response third = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions",
                    Map.of(), BODY));
                assertEquals(529, third.status(), third.text());
                assertTrue(third.body().contains("\"code\":"), third.body());
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
            awaitLiveZero(frontend);
            assertEquals(200, RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of(), BODY))
                .status());
        }
    }

    @Test
    void shouldAnswer413ForAnOversizedBodyAnd431ForOversizedHeaders() throws Exception {
        try (Frontend frontend = start(List.of(), new RouterContext(), 50)) {
            byte[] body = ("{\"model\":\"" + MODEL + "\",\"prompt\":\"" + "x".repeat(5000) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
            RawHttp.Response tooLarge = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of(),
                body));
            assertEquals(413, tooLarge.status(), tooLarge.text());
            assertTrue(tooLarge.body().contains("\"code\":\"payload_too_large\""), tooLarge.text());
            RawHttp.Response header = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions",
                Map.of("x-big", "v".repeat(64 * 1024)), BODY));
            // Headers over Helidon's 16 KiB limit: 431 with our JSON error, and the connection closed.
            assertEquals(431, header.status(), header.text());
            assertTrue(header.text().startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n"), header.text());
            assertTrue(header.text().contains("Connection: close"), header.text());
            assertTrue(header.text().contains("Content-Type: application/json"), header.text());
            assertTrue(header.body().contains("\"code\":\"request_header_fields_too_large\""), header.body());
            RawHttp.Response garbled = RawHttp.exchange(frontend.port(), ("POST /v1/completions HTTP/1.1\r\n"
                + "Host: x\r\nno colon here\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            assertEquals(400, garbled.status(), garbled.text());
            assertTrue(garbled.body().contains("\"code\":\"bad_request\""), garbled.body());
            assertFalse(garbled.body().contains("colon"), "fixed text, not Helidon's message: " + garbled.body());
            assertEquals(200, RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of(), BODY))
                .status());
        }
    }

    @Test
    void shouldAnswer413ToEveryOversizedBodyWhileTheClientIsStillSendingIt() throws Exception {
        // The JDK client sends the whole body before it reads; a server that answered and closed at the headers
        // reset that connection now and then, and the client saw an I/O error instead of the 413.
        String body = "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + "x".repeat(70_000) + "\"}";
        try (Frontend frontend = start(List.of(), new RouterContext(), 50)) {
            URI uri = URI.create("http://127.0.0.1:" + frontend.port() + "/v1/completions");
            for (int i = 0; i < 100; i++) {
                try (HttpClient client = HttpClient.newHttpClient()) {
                    HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri)
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(413, response.statusCode(), response.body());
                    assertTrue(response.body().contains("\"code\":\"payload_too_large\""), response.body());
                }
            }
        }
    }

    @Test
    void shouldAnswer400ToAMaxTokensNoEngineCanHold() throws Exception {
        try (Frontend frontend = start(List.of(), new RouterContext(), 50)) {
            RawHttp.Response response = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of(),
                ("{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\",\"max_tokens\":2147483647}")
                    .getBytes(StandardCharsets.UTF_8)));
            assertEquals(400, response.status(), response.text());
            assertTrue(response.body().contains("\"code\":\"engine_rejected\""), response.body());
            awaitLiveZero(frontend);
        }
    }

    @Test
    void shouldKeepTheMetricsLineCountFlatAcrossDistinctIds() throws Exception {
        try (Frontend frontend = start(List.of(), new RouterContext(), 50)) {
            send(frontend, 0, 20);
            int before = metrics(frontend).split("\n").length;
            send(frontend, 20, 200);
            assertEquals(before, metrics(frontend).split("\n").length, "ids never become labels");
        }
    }

    private static void send(Frontend frontend, int from, int to) throws Exception {
        for (int i = from; i < to; i++) {
            String tenant = i % 2 == 0 ? "t-" + i : "overload";
            assertTrue(RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of("x-request-id",
                "r-" + i, "x-dynamo-session-id", "s-" + i, "x-tenant", tenant), BODY)).status() > 0);
        }
    }

    /** A streaming request whose answer has started, left unread. */
    private static Socket holdStream(int port) throws Exception {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(RawHttp.post("/v1/completions", Map.of(), ("{\"model\":\"" + MODEL
            + "\",\"prompt\":\"hi\",\"max_tokens\":2000,\"stream\":true}").getBytes(StandardCharsets.UTF_8)));
        InputStream in = socket.getInputStream();
        byte[] head = new byte[12];
        assertEquals(12, in.readNBytes(head, 0, 12));
        assertEquals("HTTP/1.1 200", new String(head, StandardCharsets.ISO_8859_1));
        return socket;
    }

    private static void awaitLiveZero(Frontend frontend) throws InterruptedException {
        long giveUp = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (frontend.router().stats().live() > 0 && System.nanoTime() < giveUp) {
            Thread.sleep(5);
        }
        assertEquals(0, frontend.router().stats().live());
    }

    private static String metrics(Frontend frontend) throws Exception {
        return RawHttp.exchange(frontend.port(), ("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1)).body();
    }

    private static long sample(String metrics, String name) {
        Matcher line = Pattern.compile("(?m)^" + name + "\\{[^}]*} (\\d+)$").matcher(metrics);
        assertTrue(line.find(), metrics);
        return Long.parseLong(line.group(1));
    }
}
