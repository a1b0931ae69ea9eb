package dev.sluice.transport.cli;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.core.spi.WorkerSelectorFactory;
import dev.sluice.transport.demo.DemoSetup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a command's router policy comes from: {@code --router-policy-config}, else {@code DYN_ROUTER_POLICY_CONFIG},
 * else the bundled demo policy; then its classifier section resolved against the linked plugins. Any problem is
 * a {@link StartupException} whose message names the file, line and key, and the command exits with 2.
 */
final class PolicySource {
    static final String ENV = "DYN_ROUTER_POLICY_CONFIG";

    /**
     * A loaded policy, its text as read (for the journal), the classifier factory it selects ({@code null}: none
     * configured), the worker selector of the aggregated role (the built-in one unless the policy names
     * another), the file it was read from ({@code null}: the bundled policy) and the plugins it was resolved
     * against (a reload resolves against them again).
     */
    record Loaded(RouterPolicyConfig config, String text, RequestClassifierFactory classifier,
                  WorkerSelectorFactory selector, Path path, RouterPlugins registry) {
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
        return load(file, pluginPath, DefaultSelectorSettings.DEFAULTS);
    }

    /**
     * As {@link #load(Path, List)}, with the built-in selector's settings from the command line
     * ({@code --kv-overlap-score-weight}, {@code --router-temperature}) where the policy does not configure it.
     */
    static Loaded load(Path file, List<Path> pluginPath, DefaultSelectorSettings selectorDefaults)
        throws StartupException {
        try {
            RouterPolicyConfig config;
            String text;
            String env = System.getenv(ENV);
            Path path = file != null ? file : env != null && !env.isBlank() ? Path.of(env.trim()) : null;
            if (path != null) {
                config = RouterPolicyLoader.load(path);
                text = Files.readString(path, StandardCharsets.UTF_8);
            } else {
                text = bundled();
                config = RouterPolicyLoader.parse(text, "demo-policy.yaml (bundled)");
            }
            RouterPlugins registry = PluginPath.registry(pluginPath);
            RequestClassifierFactory classifier = registry.resolveRequestClassifier(config.requestClassifier())
                .orElse(null);
            WorkerSelectorFactory selector = registry.resolveWorkerSelector(config.workerSelection(), ROLE,
                selectorDefaults);
            return new Loaded(config, text, classifier, selector, path, registry);
        } catch (ConfigException | RegistryException | IOException e) {
            throw new StartupException(e.getMessage(), e);
        }
    }

    private static String bundled() throws IOException {
        return DemoSetup.policyText();
    }
}
