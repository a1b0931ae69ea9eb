package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** Shared helpers for the config tests: fixture files under {@code config/} and inline documents. */
final class ConfigFixtures {
    private ConfigFixtures() {
    }

    /** The path of the test resource {@code config/<name>}. */
    static Path path(String name) {
        URL url = ConfigFixtures.class.getResource("/config/" + name);
        if (url == null) {
            throw new IllegalArgumentException("no fixture config/" + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Loads the fixture {@code config/<name>}. */
    static RouterPolicyConfig load(String name) throws ConfigException {
        return RouterPolicyLoader.load(path(name));
    }

    /** Parses an inline document. */
    static RouterPolicyConfig parse(String yaml) throws ConfigException {
        return RouterPolicyLoader.parse(yaml, RouterPolicyLoader.INLINE);
    }

    /** The rejection of an inline document; fails the test when it is accepted. */
    static ConfigException rejection(String yaml) {
        return assertThrows(ConfigException.class, () -> parse(yaml), () -> "unexpectedly accepted:\n" + yaml);
    }

    /** The rejection of an inline document parsed under {@code source}. */
    static ConfigException rejection(String yaml, String source) {
        return assertThrows(ConfigException.class, () -> RouterPolicyLoader.parse(yaml, source),
            () -> "unexpectedly accepted:\n" + yaml);
    }

    /** The rejection of a fixture file. */
    static ConfigException fileRejection(String name) {
        return assertThrows(ConfigException.class, () -> load(name), () -> "unexpectedly accepted " + name);
    }
}
