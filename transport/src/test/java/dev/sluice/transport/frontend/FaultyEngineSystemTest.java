package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.FaultyEngine;
import dev.sluice.transport.testing.RawHttp;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A remote engine that fails: dies mid-stream, hangs before its first token, freezes after it, streams garbage,
 * answers 500 or 503.
 * The client gets a clean error (a status before the first token, an error event after it, then {@code [DONE]} as
 * vLLM does), the router and the
 * classifier see exactly one {@code Aborted}, and the booking is released. No engine-private text reaches the
 * client.
 */
class FaultyEngineSystemTest {
    private static final String MODEL = "faulty";
    private static final List<ClassifyEvent> EVENTS = new CopyOnWriteArrayList<>();
    private static final AtomicInteger IDS = new AtomicInteger();
    private static FaultyEngine engine;
    private static Frontend frontend;

    /** Admits everything and records every lifecycle event. */
    static final class Recording implements RequestClassifier {
        @Override
        public Classification classify(ClassifyRequest request) {
            return Classification.admit(request);
        }

        @Override
        public void onEvent(ClassifyEvent event) {
            EVENTS.add(event.copy());
        }
    }

    @BeforeAll
    static void start() throws Exception {
        engine = new FaultyEngine();
        HttpEngineSettings settings = HttpEngineSettings.of(engine.url(), MODEL, Duration.ofSeconds(1),
            Duration.ofSeconds(2), new EngineRuntimeConfig(16_384, 16, 8192, 256, 1))
            .withStreamIdleTimeout(Duration.ofSeconds(2));
        frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 1 << 20, 16, 529, null,
            Duration.ofSeconds(1), new RouterContext().classifierFactory(c -> new Recording()),
            // Health tracking off: the faults come one after another on the only engine, which would otherwise leave
            // the router after three of them (EngineHealthSystemTest covers that).
            new EngineSetup.Remote(List.of(settings), WorkerHealthSettings.OFF), null));
    }

    @AfterAll
    static void stop() {
        frontend.close();
        engine.close();
    }

    @ParameterizedTest(name = "{0}, stream={1}")
    @CsvSource({"die, false, 502", "die, true, 200", "hang, false, 504", "hang, true, 504", "garbage, false, 502",
        "garbage, true, 200", "fail500, false, 502", "fail500, true, 502", "busy503, false, 503",
        "busy503, true, 503", "freeze, false, 504", "freeze, true, 200", "fine, false, 200", "fine, true, 200"})
    void shouldAnswerCleanlyAbortOnceAndReleaseTheBooking(String fault, boolean stream, int status) throws Exception {
        long abortedBefore = frontend.router().stats().aborted();
        String id = fault + "-" + IDS.incrementAndGet();
        RawHttp.Response response = RawHttp.exchange(frontend.port(), RawHttp.post("/v1/completions",
            Map.of("x-request-id", id), ("{\"model\":\"" + MODEL + "\",\"prompt\":\"please " + fault
                + "\",\"max_tokens\":4,\"stream\":" + stream + "}").getBytes(StandardCharsets.UTF_8)));

        assertEquals(status, response.status(), response.text());
        assertFalse(response.text().contains("Traceback"), response.text());
        assertFalse(response.text().contains("secret.py"), response.text());
        boolean fails = !fault.equals("fine");
        if (fails && status == 200) {
            assertTrue(response.body().contains("\"error\""), "an error event ends the stream: " + response.body());
        }
        if (fault.equals("freeze")) {
            assertTrue(response.text().contains("\"code\":\"engine_timeout\"") && response.text().contains(
                "mid-stream"), "a stream that froze after its first token times out: " + response.text());
        }
        // The classifier hears the terminal event after the router has released the booking: wait for each.
        // Its events carry sluice's id for the request; the client's x-request-id is only its label.
        String ours = response.header("x-sluice-request-id");
        Await.until("the terminal event of " + id, () -> EVENTS.stream()
            .anyMatch(e -> e.requestId().equals(ours) && e.isTerminal()));
        Await.until("the booking of " + id + " released", () -> frontend.router().stats().live() == 0);
        assertEquals(abortedBefore + (fails ? 1 : 0), frontend.router().stats().aborted());
        List<ClassifyEvent> terminals = EVENTS.stream().filter(e -> e.requestId().equals(ours) && e.isTerminal())
            .toList();
        assertEquals(1, terminals.size(), terminals::toString);
        assertEquals(fails, terminals.get(0) instanceof ClassifyEvent.Aborted, terminals::toString);
    }
}
