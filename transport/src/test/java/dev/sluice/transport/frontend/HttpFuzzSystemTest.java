package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.router.RouterContext;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.testing.RawHttp;
import io.helidon.http.HeaderNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP fuzzing of a frontend over loopback with a seeded generator: malformed JSON, wrong types, invalid UTF-8,
 * absurd {@code max_tokens}, bad header values, enormous bodies and headers, clients that send one byte at a time,
 * never read their stream, or drop the connection before the headers end, mid-body or mid-stream. Each input gets
 * its 4xx or a clean close; afterwards the server still answers, the router has no live request and the counters
 * in {@code /metrics} add up. The number of inputs of each kind is printed.
 */
class HttpFuzzSystemTest {
    private static final String MODEL = "fuzz-model";
    private static final int MAX_BODY = 16 * 1024;
    private static final int INPUTS = 400;
    private static final List<String> PATHS = List.of("/v1/chat/completions", "/v1/completions");
    private static final Pattern SAMPLE = Pattern.compile("(?m)^(sluice_requests_[a-z]+_total)\\{[^}]*} (\\d+)$");
    private static final List<String> KINDS = List.of("truncated-json", "flipped-bytes", "wrong-type",
        "invalid-utf8", "absurd-max-tokens", "bad-header", "huge-body", "huge-header", "slow-client",
        "dropped-request", "unread-stream", "dropped-stream", "valid");
    private static final HttpFuzzInputs INPUT = new HttpFuzzInputs(MODEL);
    private static Frontend frontend;

    @BeforeAll
    static void start() throws Exception {
        frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, MAX_BODY, 16, 529,
            HeaderNames.create("x-tenant"), Duration.ofSeconds(2), new RouterContext(),
            new EngineSetup.Simulated(new SimEngineContext().numGpuBlocks(4096).blockSize(16).speedupRatio(50), 2),
            null));
    }

    @AfterAll
    static void stop() {
        frontend.close();
    }

    @Test
    void shouldAnswerEveryGeneratedInputCleanlyAndStayConsistent() throws Exception {
        Random random = new Random(0x5eed_f00dL);
        Map<String, Integer> tried = new TreeMap<>();
        for (int i = 0; i < INPUTS; i++) {
            String path = PATHS.get(random.nextInt(PATHS.size()));
            int kind = random.nextInt(KINDS.size());
            try {
                fuzzOnce(random, path, kind);
            } catch (Exception | AssertionError e) {
                throw new AssertionError("input " + i + " (" + KINDS.get(kind) + " on " + path + ") failed", e);
            }
            tried.merge(KINDS.get(kind), 1, Integer::sum);
        }
        System.out.println("HttpFuzzSystemTest: " + INPUTS + " generated inputs by kind " + tried);

        RawHttp.Response normal = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions", Map.of(),
            bytes(INPUT.valid("/v1/completions", 4, false))));
        assertEquals(200, normal.status(), normal.text());
        awaitQuiet();
        Map<String, Long> counts = counters();
        RouterStatistics stats = frontend.router().stats();
        assertEquals(0, stats.live());
        assertEquals(counts.get("sluice_requests_arrived_total"), counts.get("sluice_requests_completed_total")
            + counts.get("sluice_requests_rejected_total") + counts.get("sluice_requests_aborted_total"),
            counts::toString);
        assertEquals(stats.arrived(), counts.get("sluice_requests_arrived_total"));
        assertTrue(counts.get("sluice_requests_aborted_total") > 0, "some streams were abandoned: " + counts);
    }

    /** One generated input of {@code kind}, sent and checked. */
    private void fuzzOnce(Random random, String path, int kind) throws Exception {
        int port = frontend.port();
        switch (kind) {
            case 0 -> expect(Set.of(200, 400), RawHttp.exchange(port, post(path,
                HttpFuzzInputs.truncated(random, INPUT.valid(path, 2, false)))));
            case 1 -> expect(Set.of(200, 400), RawHttp.exchange(port, post(path,
                HttpFuzzInputs.flipped(random, INPUT.valid(path, 2, false)))));
            case 2 -> expect(Set.of(400), RawHttp.exchange(port, post(path, bytes(INPUT.wrongType(random, path)))));
            case 3 -> expect(Set.of(400), RawHttp.exchange(port, post(path, INPUT.invalidUtf8(random, path))));
            case 4 -> expect(Set.of(400), RawHttp.exchange(port, post(path,
                bytes(INPUT.absurdMaxTokens(random, path)))));
            case 5 -> badHeader(random, path);
            case 6 -> expect(Set.of(413), RawHttp.exchange(port, post(path, bytes(INPUT.valid(path, 2, false)
                .replace("hello river", "x".repeat(MAX_BODY + random.nextInt(4 * MAX_BODY)))))));
            case 7 -> expect(Set.of(431), RawHttp.exchange(port, RawHttp.post(path,
                Map.of("x-big", "v".repeat(16 * 1024 + random.nextInt(64 * 1024))), bytes(INPUT.valid(path, 2,
                    false)))));
            case 8 -> expect(Set.of(200), RawHttp.exchange(port, post(path, bytes(INPUT.valid(path, 2, false))),
                1, random.nextInt(3) == 0 ? 200_000 : 0));
            case 9 -> {
                byte[] request = post(path, bytes(INPUT.valid(path, 2, false)));
                RawHttp.sendAndDrop(port, request, random.nextInt(request.length));
            }
            case 10 -> RawHttp.sendAndLeave(port, post(path, bytes(INPUT.valid(path, 5000, true))), 0,
                Duration.ofMillis(20 + random.nextInt(80)).toNanos());
            case 11 -> RawHttp.sendAndLeave(port, post(path, bytes(INPUT.valid(path, 5000, true))),
                1 + random.nextInt(4096), 0);
            default -> expect(Set.of(200), RawHttp.exchange(port, post(path, bytes(INPUT.valid(path,
                1 + random.nextInt(8), random.nextBoolean())))));
        }
    }

    private void badHeader(Random random, String path) throws Exception {
        List<String> names = List.copyOf(new TreeMap<>(HttpFuzzInputs.BAD_HEADERS).keySet());
        String name = names.get(random.nextInt(names.size()));
        String[] values = HttpFuzzInputs.BAD_HEADERS.get(name);
        Map<String, String> headers = name.equals("x-dynamo-session-final")
            ? Map.of(name, values[random.nextInt(values.length)], "x-dynamo-session-id", "s" + random.nextInt(9))
            : Map.of(name, values[random.nextInt(values.length)]);
        RawHttp.Response response = RawHttp.exchange(frontend.port(), RawHttp.post(path, headers,
            bytes(INPUT.valid(path, 2, false))));
        expect(Set.of(400), response);
        assertTrue(response.body().contains(name), response.text());
    }

    private static void expect(Set<Integer> allowed, RawHttp.Response response) {
        assertTrue(allowed.contains(response.status()), () -> "expected " + allowed + ", got:\n" + response.text());
        assertFalse(response.text().contains("Exception"), response.text());
    }

    private static byte[] post(String path, byte[] body) {
        return RawHttp.post(path, Map.of(), body);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void awaitQuiet() throws InterruptedException {
        long giveUp = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (frontend.router().stats().live() > 0 && System.nanoTime() < giveUp) {
            Thread.sleep(10);
        }
    }

    private static Map<String, Long> counters() throws Exception {
        RawHttp.Response metrics = RawHttp.exchange(frontend.port(), ("GET /metrics HTTP/1.1\r\nHost: x\r\n"
            + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        Map<String, Long> counts = new TreeMap<>(Map.of("sluice_requests_rejected_total", 0L));
        Matcher sample = SAMPLE.matcher(metrics.body());
        while (sample.find()) {
            counts.merge(sample.group(1), Long.parseLong(sample.group(2)), Long::sum);
        }
        return counts;
    }
}
