package dev.sluice.transport.cli;

import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifierFactory;
import java.io.IOException;
import java.io.InputStream;
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
    private static final String BUNDLED = "/dev/sluice/transport/demo/demo-policy.yaml";

    /** A loaded policy, its text as read (for the journal), and the classifier factory it selects. */
    record Loaded(RouterPolicyConfig config, String text, RequestClassifierFactory classifier) {
    }

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
            RequestClassifierFactory classifier = PluginPath.registry(pluginPath)
                .resolveRequestClassifier(config.requestClassifier()).orElse(null);
            return new Loaded(config, text, classifier);
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
