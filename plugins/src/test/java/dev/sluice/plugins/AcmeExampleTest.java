package dev.sluice.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.core.testing.SteppedRouter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guide's example ({@code examples/acme-admission}) compiled against this module's core and linked the way
 * {@code --plugin-path} links it: its catalog is found by ServiceLoader, the seed's {@code admission.yaml} resolves
 * unchanged, and the classifier admits with the budget as deadline and answers 429 once the budget is spent
 * (with {@code DYN_HTTP_OVERLOAD_STATUS_CODE=429}). The Maven build of the example itself runs in
 * {@code examples/acme-admission/check.sh}, called by {@code scripts/test}.
 */
class AcmeExampleTest {
    static final Path EXAMPLE = Path.of("examples", "acme-admission");

    @TempDir
    static Path classes;
    private static ClassLoader loader;

    @BeforeAll
    static void compileTheExample() throws Exception {
        List<String> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(EXAMPLE)) {
            files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("src" + java.io.File.separator
                + "main")).forEach(f -> sources.add(f.toString()));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp",
            System.getProperty("java.class.path"), "--release", "21"));
        args.addAll(sources);
        StringWriter errors = new StringWriter();
        int rc = javac.run(null, null, new java.io.PrintStream(new java.io.ByteArrayOutputStream()) {
            @Override
            public void write(byte[] b, int off, int len) {
                errors.write(new String(b, off, len, java.nio.charset.StandardCharsets.UTF_8));
            }
        }, args.toArray(new String[0]));
        assertEquals(0, rc, errors::toString);
        Path services = classes.resolve("META-INF/services");
        Files.createDirectories(services);
        Files.copy(EXAMPLE.resolve("catalog/src/main/resources/META-INF/services/"
            + "dev.sluice.core.spi.RouterPluginCatalog"), services.resolve("dev.sluice.core.spi.RouterPluginCatalog"));
        loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, AcmeExampleTest.class.getClassLoader());
    }

    private static SteppedRouter router() throws Exception {
        RouterPolicyConfig config = RouterPolicyLoader.load(EXAMPLE.resolve("admission.yaml"));
        RequestClassifierFactory factory = RouterPlugins.loadCatalogs(loader)
            .resolveRequestClassifier(config.requestClassifier()).orElseThrow();
        return new SteppedRouter(null, new RouterContext().classifierFactory(factory)
            .profile(config.profileFor("model", OptionalDouble.empty(), QueuePolicy.FCFS)));
    }

    @Test
    void shouldLinkTheExampleNextToTheBuiltIns() throws Exception {
        RouterPlugins registry = RouterPlugins.loadCatalogs(loader);
        assertTrue(registry.requestClassifierTypes().containsAll(List.of("acme-queue-budget", "queue-budget",
            "thunderagent", "token-rate-limit")));
    }

    @Test
    void shouldAdmitWithinTheBudgetAndShedAQueuedRequestWith429WhenItEnds() throws Exception {
        try (SteppedRouter r = router().worker(1, 100)) {
            long running = r.submit(AdmissionRequest.builder("running").inputTokens(150).build());
            long queued = r.submit(AdmissionRequest.builder("queued").inputTokens(10).build());
            assertTrue(r.listener.outcome(running).dispatched());
            r.advance(Duration.ofMillis(1999));
            assertFalse(r.listener.has(queued));
            r.advance(Duration.ofMillis(1));
            assertEquals(429, r.listener.outcome(queued).error().httpStatus(529));
        }
    }

    @Test
    void shouldRejectARequestWhoseBudgetWasSpentBeforeClassification() throws Exception {
        try (SteppedRouter r = router().worker(1, 8192)) {
            long ingress = r.clock.nanoTime();
            r.clock.advance(Duration.ofMillis(2500).toNanos());
            long late = r.router.submit(AdmissionRequest.builder("late").inputTokens(10).build(), ingress,
                r.listener);
            r.step();
            AdmissionError error = r.listener.outcome(late).error();
            assertEquals(ErrorClass.CAPACITY_EXHAUSTED, error.errorClass());
            assertEquals("Admission wait budget exhausted; retry later", error.publicMessage());
            assertEquals(429, error.httpStatus(429), "DYN_HTTP_OVERLOAD_STATUS_CODE=429");
        }
    }

    @Test
    void shouldStopStartupOnAnOutOfRangeBudget() throws Exception {
        RouterPolicyConfig config = RouterPolicyLoader.parse(
            "request_classifier:\n  type: acme-queue-budget\n  parameters:\n    max_wait_ms: 0\n", "bad.yaml");
        RegistryException e = org.junit.jupiter.api.Assertions.assertThrows(RegistryException.class,
            () -> RouterPlugins.loadCatalogs(loader).resolveRequestClassifier(config.requestClassifier()));
        assertEquals("bad.yaml:3:3: request_classifier.parameters: invalid parameters for request-classifier type"
            + " \"acme-queue-budget\": max_wait_ms must be between 1 and 60000", e.getMessage());
    }
}
