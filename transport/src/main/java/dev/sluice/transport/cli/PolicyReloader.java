package dev.sluice.transport.cli;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PluginSection;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.config.WorkerSelectionConfig;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.transport.frontend.Frontend;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads {@code serve}'s router-policy file when asked (SIGHUP, or a change {@link PolicyFileWatcher} saw) and
 * hands each model's router the new policy. The file is validated in full first, exactly as at start-up: the YAML
 * (the same {@code file:line:col} messages), every model's profile, the {@code request_classifier} section against
 * the linked plugins (re-resolved only when it changed) and {@code worker_selection}. An invalid file is refused,
 * logged and counted in {@code /metrics} ({@code sluice_policy_reloads_total{result="refused"}}), and the old
 * policy serves on. A file whose text did not change is left alone. {@code worker_selection} is checked but takes
 * effect at the next start (the selectors hold per-worker state); a change of it is logged.
 *
 * <p>Thread-safe: reloads are serialized.
 */
final class PolicyReloader {
    private static final Logger LOG = LoggerFactory.getLogger(PolicyReloader.class);

    private final Path file;
    private final Frontend frontend;
    private final PolicySource.Loaded startup;
    private final OptionalDouble threshold;
    private final QueuePolicy queuePolicy;
    private final DefaultSelectorSettings selectorDefaults;
    private RouterPolicyConfig current;
    private String currentText;

    PolicyReloader(PolicySource.Loaded startup, Frontend frontend, OptionalDouble threshold, QueuePolicy queuePolicy,
                   DefaultSelectorSettings selectorDefaults) {
        this.file = Objects.requireNonNull(startup.path(), "a reloadable policy is read from a file");
        this.frontend = frontend;
        this.startup = startup;
        this.threshold = threshold;
        this.queuePolicy = queuePolicy;
        this.selectorDefaults = selectorDefaults;
        this.current = startup.config();
        this.currentText = startup.text();
    }

    /** The file reloads read. */
    Path file() {
        return file;
    }

    /** What a reload did. */
    enum Outcome { APPLIED, UNCHANGED, REFUSED }

    /**
     * Reads, validates and, if valid and changed, applies the policy file to every model.
     *
     * @param trigger what asked for it, for the log ({@code SIGHUP}, {@code file change}).
     */
    synchronized Outcome reload(String trigger) {
        RouterPolicyConfig config;
        String text;
        RequestClassifierFactory classifier = null;
        boolean classifierChanged;
        Map<String, PolicyProfile> profiles = new LinkedHashMap<>();
        try {
            config = RouterPolicyLoader.load(file);
            text = Files.readString(file, StandardCharsets.UTF_8);
            if (text.equals(currentText)) {
                LOG.info("router policy {} unchanged ({}); nothing to reload", file, trigger);
                return Outcome.UNCHANGED;
            }
            classifierChanged = !sameSection(current.requestClassifier(), config.requestClassifier());
            if (classifierChanged) {
                classifier = startup.registry().resolveRequestClassifier(config.requestClassifier()).orElse(null);
            }
            startup.registry().resolveWorkerSelector(config.workerSelection(), PolicySource.ROLE, selectorDefaults);
            for (String model : frontend.modelNames()) {
                profiles.put(model, config.profileFor(model, threshold, queuePolicy));
            }
        } catch (ConfigException | RegistryException | IOException e) {
            return refused(e.getMessage());
        }
        if (!sameSelection(current.workerSelection(), config.workerSelection())) {
            LOG.warn("router policy {}: worker_selection changed; it takes effect at the next start", file);
        }
        for (Map.Entry<String, PolicyProfile> entry : profiles.entrySet()) {
            try {
                if (classifierChanged) {
                    frontend.router(entry.getKey()).reloadPolicy(file.toString(), text, entry.getValue(), classifier);
                } else {
                    frontend.router(entry.getKey()).reloadPolicy(file.toString(), text, entry.getValue());
                }
            } catch (RuntimeException e) {
                // The classifier factory failed for this model: it keeps its old policy; the others have the new.
                frontend.metrics(entry.getKey()).policyReloadRefused();
                LOG.error("router policy {}: model {} refused the reload, its classifier could not be created; it "
                    + "keeps the old policy", file, entry.getKey(), e);
            }
        }
        current = config;
        currentText = text;
        LOG.info("router policy {} reloaded ({}): {} model(s), classifier {}", file, trigger, profiles.size(),
            classifierChanged ? "re-created" : "kept");
        return Outcome.APPLIED;
    }

    private Outcome refused(String message) {
        for (String model : frontend.modelNames()) {
            frontend.metrics(model).policyReloadRefused();
        }
        LOG.error("router policy reload refused, the old policy serves on: {}", message);
        return Outcome.REFUSED;
    }

    /** Two plugin sections configure the same plugin: type and parameters (not where they were written). */
    static boolean sameSection(Optional<PluginSection> a, Optional<PluginSection> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return a.isEmpty() && b.isEmpty();
        }
        return a.get().type().equals(b.get().type()) && a.get().parameters().equals(b.get().parameters());
    }

    private static boolean sameSelection(Optional<WorkerSelectionConfig> a, Optional<WorkerSelectionConfig> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return a.isEmpty() && b.isEmpty();
        }
        List<WorkerSelectionConfig.Instance> x = a.get().instances();
        List<WorkerSelectionConfig.Instance> y = b.get().instances();
        if (!a.get().roles().equals(b.get().roles()) || x.size() != y.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            if (!x.get(i).name().equals(y.get(i).name())
                || !sameSection(Optional.of(x.get(i).plugin()), Optional.of(y.get(i).plugin()))) {
                return false;
            }
        }
        return true;
    }
}
