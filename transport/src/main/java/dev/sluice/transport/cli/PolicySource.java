package dev.sluice.transport.cli;

import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.spi.RouterPluginRegistry;
import dev.sluice.core.spi.WorkerSelectorFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a command's router policy comes from: {@code --router-policy-config}, else {@code DYN_ROUTER_POLICY_CONFIG},
 * else the bundled demo policy; then its classifier section resolved against the linked plugins. Any problem is
 * a {@link StartupException} whose message names the file, line and key, and the command exits with 2.
 */
final class PolicySource {
    static final String ENV = "DYN_ROUTER_POLICY_CONFIG";
    private static final String BUNDLED = "/dev/sluice/transport/demo/demo-policy.yaml";

    /**
     * A loaded policy, the classifier factory it selects ({@code null}: none configured) and the worker selector
     * of the aggregated role (the built-in one unless the policy names another).
     */
    record Loaded(RouterPolicyConfig config, RequestClassifierFactory classifier, WorkerSelectorFactory selector) {
    }

    /** The role whose worker selector an aggregated (non-disaggregated) router uses. */
    static final String ROLE = "aggregated";

    /** The policy could not be loaded; start-up stops. */
    static final class StartupException extends Exception {
        private static final long serialVersionUID = 1L;

        StartupException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private PolicySource() {
    }

    static Loaded load(Path file, List<Path> pluginPath) throws StartupException {
        try {
            RouterPolicyConfig config;
            String env = System.getenv(ENV);
            if (file != null) {
                config = RouterPolicyLoader.load(file);
            } else if (env != null && !env.isBlank()) {
                config = RouterPolicyLoader.load(Path.of(env.trim()));
            } else {
                config = RouterPolicyLoader.parse(bundled(), "demo-policy.yaml (bundled)");
            }
            RouterPluginRegistry registry = PluginPath.registry(pluginPath);
            RequestClassifierFactory classifier = registry.resolveRequestClassifier(config.requestClassifier())
                .orElse(null);
            WorkerSelectorFactory selector = registry.resolveWorkerSelector(config.workerSelection(), ROLE);
            return new Loaded(config, classifier, selector);
        } catch (ConfigException | RegistryException | IOException e) {
            throw new StartupException(e.getMessage(), e);
        }
    }

    private static String bundled() throws IOException {
        try (InputStream in = PolicySource.class.getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new IOException("the bundled demo policy " + BUNDLED + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
