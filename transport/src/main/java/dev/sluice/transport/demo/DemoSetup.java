package dev.sluice.transport.demo;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.OverloadStatus;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.transport.frontend.EngineSetup;
import dev.sluice.transport.frontend.FrontendSettings;
import dev.sluice.transport.frontend.JournalSetup;
import dev.sluice.transport.frontend.RouterModes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.OptionalDouble;

/**
 * What {@code sluice demo} runs with when given no options, for programs that run its workload on other engines
 * (perf's experiments): the bundled router policy, the router it makes (the demo's classifier, KV-aware placement)
 * and the frontend's settings. Stateless.
 */
public final class DemoSetup {
    private static final String BUNDLED = "/dev/sluice/transport/demo/demo-policy.yaml";

    private DemoSetup() {
    }

    /** The bundled demo policy's text. */
    public static String policyText() throws IOException {
        try (InputStream in = DemoSetup.class.getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new IOException("the bundled demo policy " + BUNDLED + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * The demo's router under the bundled policy: its profile for {@link InProcessDemo#MODEL}, the demo's own
     * classifier ({@link InProcessDemo#sessionTurnClassifier}), router mode {@code kv} with the built-in selector's
     * defaults, no classification timeout, seeded with {@code seed} as {@code sluice demo --seed} seeds it.
     */
    public static RouterContext router(long seed) {
        RouterPolicyConfig config;
        try {
            config = RouterPolicyLoader.parse(policyText(), "demo-policy.yaml (bundled)");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ConfigException e) {
            throw new IllegalStateException("the bundled demo policy does not load: " + e.getMessage(), e);
        }
        try {
            RouterPlugins builtin = new RouterPlugins();
            return new RouterContext()
                .profile(config.profileFor(InProcessDemo.MODEL, OptionalDouble.empty(), QueuePolicy.FCFS))
                .classifierFactory(builtin.resolveRequestClassifier(config.requestClassifier())
                    .orElse(InProcessDemo.sessionTurnClassifier()))
                .classificationTimeout(Duration.ZERO)
                .workerSelector(RouterModes.parse("kv").selector(builtin.resolveWorkerSelector(
                    config.workerSelection(), "aggregated", DefaultSelectorSettings.DEFAULTS)))
                .randomSeed(seed);
        } catch (RegistryException e) {
            throw new IllegalStateException("the bundled demo policy names a plugin: " + e.getMessage(), e);
        }
    }

    /** The demo's frontend on a free loopback port, serving {@link InProcessDemo#MODEL} with these engines. */
    public static FrontendSettings frontend(RouterContext router, EngineSetup engines, JournalSetup journal) {
        return new FrontendSettings("127.0.0.1", 0, InProcessDemo.MODEL, 4 << 20, 64,
            OverloadStatus.fromEnvironment(), null, Duration.ofSeconds(10), router, engines, journal);
    }
}
