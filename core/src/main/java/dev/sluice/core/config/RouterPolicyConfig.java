package dev.sluice.core.config;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A parsed and validated router-policy file. Profiles resolve per model: the exact model profile, else the root
 * profile, else the synthetic {@code default} profile built from {@code --router-queue-threshold} and
 * {@code --router-queue-policy}. A model profile replaces the root wholesale.
 *
 * @param source            where it came from (a path, or {@code <inline>}), for messages.
 * @param root              the root profile, if the file defines one.
 * @param models            exact-model profiles, in file order.
 * @param requestClassifier the {@code request_classifier} section (process-wide), if present.
 * @param workerSelection   the {@code worker_selection} section, if present (kept as parsed; resolved with the
 *                          worker-selection registry).
 */
public record RouterPolicyConfig(
    String source,
    Optional<PolicyProfile> root,
    Map<String, PolicyProfile> models,
    Optional<PluginSection> requestClassifier,
    Optional<WorkerSelectionConfig> workerSelection) {

    public RouterPolicyConfig {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(root, "root");
        models = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(models));
        Objects.requireNonNull(requestClassifier, "requestClassifier");
        Objects.requireNonNull(workerSelection, "workerSelection");
    }

    /** No file: pass-through classifier and the synthetic profile for every model. */
    public static RouterPolicyConfig none() {
        return new RouterPolicyConfig("<none>", Optional.empty(), Map.of(), Optional.empty(), Optional.empty());
    }

    /** The profile a model's router queues by. */
    public PolicyProfile profileFor(String model, OptionalDouble fallbackThreshold, QueuePolicy fallbackPolicy) {
        PolicyProfile exact = models.get(model);
        if (exact != null) {
            return exact;
        }
        return root.orElseGet(() -> PolicyProfile.synthetic(fallbackThreshold, fallbackPolicy));
    }
}
