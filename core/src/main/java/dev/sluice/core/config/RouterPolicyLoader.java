package dev.sluice.core.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Loads a router-policy file ({@code --router-policy-config}, dynamo.md §4) into a validated
 * {@link RouterPolicyConfig}. Parsing is strict: duplicate keys, unknown keys, wrong types, aliases and every
 * violation of the schema's rules are a {@link ConfigException} naming the source, line, column and key path. The
 * first problem found is reported, and a bad file never yields a partial configuration.
 *
 * <p>Cold path, called once at startup. Stateless; thread-safe.
 */
public final class RouterPolicyLoader {
    /** The source name used for documents parsed from a string. */
    public static final String INLINE = "<inline>";

    private static final List<String> KEYS = List.of("default_policy_family", "uncached_isl_buckets",
        "policy_classes", "models", "worker_selection", "request_classifier");

    private RouterPolicyLoader() {
    }

    /**
     * Reads and validates {@code file} (UTF-8, at most 1 MiB).
     *
     * @throws ConfigException {@code failed to read router policy config <path>: <reason>} when the file cannot be
     *                         read, else as {@link #parse}.
     */
    public static RouterPolicyConfig load(Path file) throws ConfigException {
        String source = file.toString();
        String yaml;
        try {
            yaml = YamlValue.readFile(file);
        } catch (IOException e) {
            throw ConfigException.unreadable(source, reason(e));
        }
        return parse(yaml, source);
    }

    /**
     * Parses and validates a policy document.
     *
     * @param yaml       the document.
     * @param sourceName the name messages use: a path, or {@link #INLINE}.
     * @throws ConfigException {@code failed to parse router policy config <source>: ...} for malformed YAML, else
     *                         the first schema violation.
     */
    public static RouterPolicyConfig parse(String yaml, String sourceName) throws ConfigException {
        YamlValue document = YamlValue.read(yaml, sourceName, "router policy config");
        YamlMap top = document.map().allowOnly(KEYS);
        Optional<PolicyProfile> root = root(top);
        Map<String, PolicyProfile> models = models(top.get("models"));
        YamlValue selection = top.get("worker_selection");
        Optional<WorkerSelectionConfig> workerSelection = selection == null ? Optional.empty()
            : Optional.of(WorkerSelectionReader.read(selection));
        YamlValue classifier = top.get("request_classifier");
        Optional<PluginSection> requestClassifier = classifier == null ? Optional.empty()
            : Optional.of(PluginSectionReader.requestClassifier(classifier));
        if (root.isEmpty() && models.isEmpty() && workerSelection.isEmpty() && requestClassifier.isEmpty()) {
            throw document.error("router policy config must define a root profile, at least one model profile,"
                + " worker_selection, or request_classifier");
        }
        return new RouterPolicyConfig(sourceName, root, models, requestClassifier, workerSelection);
    }

    /** The root profile: all three profile keys or none of them. */
    private static Optional<PolicyProfile> root(YamlMap top) throws ConfigException {
        List<YamlValue> present = new ArrayList<>();
        for (String key : ProfileReader.KEYS) {
            if (top.contains(key)) {
                present.add(top.raw(key));
            }
        }
        if (present.isEmpty()) {
            return Optional.empty();
        }
        if (present.size() < ProfileReader.KEYS.size()) {
            throw present.get(0).error("root profile must specify default_policy_family, uncached_isl_buckets, and"
                + " policy_classes when any root profile field is present");
        }
        return Optional.of(ProfileReader.read(top));
    }

    private static Map<String, PolicyProfile> models(YamlValue value) throws ConfigException {
        Map<String, PolicyProfile> models = new LinkedHashMap<>();
        if (value == null) {
            return models;
        }
        YamlMap map = value.map();
        List<String> names = map.keys();
        List<YamlValue> profiles = map.values();
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).isEmpty()) {
                throw profiles.get(i).error("model profile name must not be empty");
            }
            models.put(names.get(i), ProfileReader.read(profiles.get(i).map().allowOnly(ProfileReader.KEYS)));
        }
        return models;
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof CharacterCodingException) {
            return "not valid UTF-8";
        }
        String message = e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message;
    }
}
