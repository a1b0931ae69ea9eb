package dev.sluice.perf.experiment;

import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.transport.simulation.ClusterContext;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The router policy of the scheduling-quality experiment, written as router-policy YAML and loaded like any
 * policy file: one cache bucket, one family per {@link QualityClass} (class {@code <name>_all}, its quantum), the
 * first family the default. <b>Queued</b>, every class waits in the router while every worker is busy
 * ({@code prefill_busy_threshold_frac}), a class holds at most {@code request_queue_limit_per_worker} × workers
 * waiting requests, and the built-in {@code queue-budget} classifier gives each request
 * {@code due_at = ingress + max_wait_ms}. <b>Unqueued</b>, the same classes and quanta with no threshold, no limit
 * and no classifier: every request goes to an engine at once. Immutable.
 *
 * @param busyThresholdFrac   {@code prefill_busy_threshold_frac} of every class.
 * @param queueLimitPerWorker {@code request_queue_limit_per_worker} of every class.
 * @param maxWaitMs           the {@code queue-budget} classifier's {@code max_wait_ms}.
 */
public record QualityPolicy(double busyThresholdFrac, long queueLimitPerWorker, long maxWaitMs) {
    /** The profile and classifier a run's router gets. */
    record Resolved(PolicyProfile profile, RequestClassifierFactory classifier) {
    }

    public QualityPolicy {
        if (!(busyThresholdFrac >= 0) || queueLimitPerWorker < 1 || maxWaitMs < 1) {
            throw new IllegalArgumentException("invalid quality policy: " + busyThresholdFrac + ", "
                + queueLimitPerWorker + ", " + maxWaitMs);
        }
    }

    /** The policy file's text. */
    public String yaml(List<QualityClass> classes, boolean queued) {
        StringBuilder y = new StringBuilder();
        if (queued) {
            y.append("request_classifier:\n  type: queue-budget\n  parameters:\n    max_wait_ms: ")
                .append(maxWaitMs).append('\n');
        }
        y.append("default_policy_family: ").append(classes.get(0).name()).append('\n');
        y.append("uncached_isl_buckets:\n  - min_tokens: 0\n    bucket: all\n");
        y.append("policy_classes:\n");
        for (QualityClass c : classes) {
            y.append("  - name: ").append(c.name()).append("_all\n");
            y.append("    policy_family: ").append(c.name()).append('\n');
            y.append("    cache_bucket: all\n");
            y.append("    quantum: ").append(c.quantum()).append('\n');
            if (queued) {
                y.append("    prefill_busy_threshold_frac: ")
                    .append(String.format(Locale.ROOT, "%s", busyThresholdFrac)).append('\n');
                y.append("    request_queue_limit_per_worker: ").append(queueLimitPerWorker).append('\n');
            }
        }
        return y.toString();
    }

    /** Loads {@link #yaml} and resolves its classifier through the plugin registry (null when it has none). */
    Resolved resolve(List<QualityClass> classes, boolean queued) {
        String name = queued ? "scheduling-quality (queued)" : "scheduling-quality (unqueued)";
        try {
            RouterPolicyConfig config = RouterPolicyLoader.parse(yaml(classes, queued), name);
            RouterPlugins registry = RouterPlugins.loadCatalogs(QualityPolicy.class.getClassLoader());
            PolicyProfile profile = config.profileFor(ClusterContext.DEFAULT_MODEL, OptionalDouble.empty(),
                QueuePolicy.FCFS);
            return new Resolved(profile, registry.resolveRequestClassifier(config.requestClassifier()).orElse(null));
        } catch (ConfigException | RegistryException e) {
            throw new IllegalStateException("the generated " + name + " policy does not load: " + e.getMessage(), e);
        }
    }
}
