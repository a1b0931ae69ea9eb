package dev.sluice.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Renders a {@link RouterPolicyConfig} as text for people ({@code sluice config check FILE}): the process-wide
 * sections, then for the root profile, each model profile and the synthetic fallback: default family, buckets with
 * their floors, families, classes in DRR ring order with queue policy, quantum, busy thresholds and limits, and the
 * class a request lands in for each family and bucket (computed with {@link PolicyProfile#resolveLenient}, so the
 * text shows what the router will do). The output is deterministic: file order throughout. Stateless.
 */
public final class ProfileDescriber {
    private static final String INDENT = "  ";

    private ProfileDescriber() {
    }

    /** The description, with the fallback as {@code --router-queue-threshold} unset and {@code fcfs}. */
    public static String describe(RouterPolicyConfig config) {
        return describe(config, OptionalDouble.empty(), QueuePolicy.FCFS);
    }

    /** The description, with the synthetic fallback built from the given command-line values. */
    public static String describe(RouterPolicyConfig config, OptionalDouble fallbackThreshold,
                                  QueuePolicy fallbackPolicy) {
        StringBuilder out = new StringBuilder();
        out.append("router policy config ").append(config.source()).append('\n');
        out.append("request_classifier: ").append(config.requestClassifier().map(ProfileDescriber::plugin)
            .orElse("not configured (pass-through)")).append('\n');
        out.append("worker_selection: ").append(config.workerSelection().map(ProfileDescriber::selection)
            .orElse("not configured (built-in)")).append('\n');
        config.root().ifPresent(root -> out.append('\n').append(describeProfile("root profile", root)));
        for (Map.Entry<String, PolicyProfile> model : config.models().entrySet()) {
            out.append('\n').append(describeProfile("model " + KeyPath.quote(model.getKey()) + " profile",
                model.getValue()));
        }
        out.append('\n');
        if (config.root().isPresent()) {
            out.append("fallback profile (synthetic): not used; models without a profile use the root profile\n");
        } else {
            out.append(describeProfile("fallback profile (synthetic, for models without a profile)",
                PolicyProfile.synthetic(fallbackThreshold, fallbackPolicy)));
        }
        return out.toString();
    }

    /** One profile under {@code title}. */
    public static String describeProfile(String title, PolicyProfile profile) {
        StringBuilder out = new StringBuilder(title).append('\n');
        List<CacheBucket> buckets = profile.buckets();
        if (!profile.isSynthetic()) {
            line(out, 1, "default policy family: " + profile.defaultPolicyFamily());
            line(out, 1, "cache buckets (uncached input tokens):");
            for (int b = 0; b < buckets.size(); b++) {
                String range = b + 1 < buckets.size()
                    ? buckets.get(b).minTokens() + " to " + (buckets.get(b + 1).minTokens() - 1)
                    : buckets.get(b).minTokens() + " or more";
                line(out, 2, buckets.get(b).name() + ": " + range);
            }
            line(out, 1, "policy families: " + String.join(", ", profile.families()));
        }
        line(out, 1, "policy classes (DRR ring order):");
        List<PolicyClassSpec> classes = profile.classes();
        for (int i = 0; i < classes.size(); i++) {
            line(out, 2, (i + 1) + ". " + describeClass(classes.get(i)));
        }
        if (profile.isSynthetic()) {
            line(out, 1, "every request lands in " + classes.get(0).name());
            return out.toString();
        }
        line(out, 1, "class per family and bucket:");
        for (String family : profile.families()) {
            for (CacheBucket bucket : buckets) {
                int index = profile.resolveLenient(family, bucket.minTokens());
                line(out, 2, family + " / " + bucket.name() + " -> " + classes.get(index).name());
            }
        }
        List<String> explicit = new ArrayList<>();
        for (PolicyClassSpec spec : classes) {
            if (!spec.isMatrixClass()) {
                explicit.add(spec.name());
            }
        }
        line(out, 1, "explicit classes (by name, bypassing buckets): "
            + (explicit.isEmpty() ? "none" : String.join(", ", explicit)));
        return out.toString();
    }

    private static String describeClass(PolicyClassSpec spec) {
        String binding = spec.isMatrixClass()
            ? "family " + spec.policyFamily() + ", bucket " + spec.cacheBucket() : "explicit";
        return spec.name() + ": " + binding + "; " + spec.queuePolicy().yamlName() + ", quantum " + spec.quantum()
            + "; " + busy(spec) + "; " + limits(spec) + fairness(spec.tenantFairness())
            + preemption(spec.preemption());
    }

    private static String fairness(TenantFairness f) {
        if (!f.enabled()) {
            return "";
        }
        return "; tenant fairness vtc (prompt " + f.promptWeight() + ", cached " + f.cachedWeight() + ", output "
            + f.outputWeight() + ", up to " + f.maxTenants() + " tenants"
            + (f.tenantWeights().isEmpty() ? "" : ", weights " + new java.util.TreeMap<>(f.tenantWeights()))
            + (f.preemptOverServed() ? ", preempts over-served tenants" : "") + ")";
    }

    /** Nothing for a class without the preemption keys, so descriptions of Dynamo's files are unchanged. */
    private static String preemption(ClassPreemption preemption) {
        if (preemption.equals(ClassPreemption.NONE)) {
            return "";
        }
        return "; " + (preemption.preemptible() ? "preemptible" : "not preemptible") + ", preemption priority "
            + preemption.priority();
    }

    private static String busy(PolicyClassSpec spec) {
        List<String> parts = new ArrayList<>();
        spec.prefillBusyThreshold().ifPresent(t -> parts.add(t + " active prefill tokens"));
        spec.prefillBusyThresholdFrac().ifPresent(f -> parts.add(f + " x max_num_batched_tokens"));
        return parts.isEmpty() ? "queueing disabled (no busy threshold)" : "busy above " + String.join(" or ", parts);
    }

    private static String limits(PolicyClassSpec spec) {
        List<String> parts = new ArrayList<>();
        limit(parts, "request_queue_limit_per_worker", spec.requestQueueLimitPerWorker());
        limit(parts, "raw_isl_token_queue_limit_per_worker", spec.rawIslTokenQueueLimitPerWorker());
        limit(parts, "cached_token_queue_limit_per_worker", spec.cachedTokenQueueLimitPerWorker());
        return parts.isEmpty() ? "no queue limits" : String.join(", ", parts);
    }

    private static void limit(List<String> parts, String key, OptionalLong value) {
        if (value.isPresent()) {
            parts.add(key + " " + value.getAsLong() + (value.getAsLong() == 0 ? " (refuses instead of queueing)" : ""));
        }
    }

    private static String plugin(PluginSection section) {
        return section.type() + ", parameters " + section.parameters();
    }

    private static String selection(WorkerSelectionConfig selection) {
        List<String> parts = new ArrayList<>();
        for (String role : WorkerSelectionReader.ROLES) {
            String instance = selection.roles().get(role);
            if (instance != null) {
                parts.add(role + " -> " + instance);
            }
        }
        for (WorkerSelectionConfig.Instance instance : selection.instances()) {
            parts.add("instance " + instance.name() + " = " + plugin(instance.plugin()));
        }
        return String.join("; ", parts);
    }

    private static void line(StringBuilder out, int depth, String text) {
        out.append(INDENT.repeat(depth)).append(text).append('\n');
    }
}
