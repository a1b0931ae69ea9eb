package dev.sluice.core.config;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Reads and validates one item of {@code policy_classes} (dynamo.md §4.3). Checks that need the whole profile
 * (duplicate names, the family × bucket matrix, collisions) are {@link ProfileReader}'s. Stateless.
 */
final class PolicyClassReader {
    static final List<String> KEYS = List.of("name", "policy_family", "cache_bucket", "queue_policy", "quantum",
        "prefill_busy_threshold", "prefill_busy_threshold_frac", "request_queue_limit_per_worker",
        "raw_isl_token_queue_limit_per_worker", "cached_token_queue_limit_per_worker", "tenant_fairness", "vtc",
        "preemptible", "preemption_priority");

    /**
     * A validated class with the values later profile checks point at.
     *
     * @param spec   the class.
     * @param name   where the name was written.
     * @param family where the family was written, or {@code null} for an explicit class.
     */
    record ParsedClass(PolicyClassSpec spec, YamlValue name, YamlValue family) {
    }

    private PolicyClassReader() {
    }

    /** Reads {@code item}; {@code bucketIndex} maps the profile's bucket names to their index. */
    static ParsedClass read(YamlValue item, Map<String, Integer> bucketIndex) throws ConfigException {
        YamlMap map = item.map().allowOnly(KEYS);
        YamlValue nameValue = map.require("name");
        String name = nameValue.identifier("policy class");
        YamlValue quantumValue = map.require("quantum");
        long quantum = quantumValue.nonNegativeLong();
        if (quantum == 0) {
            throw quantumValue.error("quantum must be greater than zero");
        }
        QueuePolicy queuePolicy = queuePolicy(map.get("queue_policy"));
        OptionalDouble frac = OptionalDouble.empty();
        YamlValue fracValue = map.get("prefill_busy_threshold_frac");
        if (fracValue != null) {
            double value = fracValue.number();
            if (!Double.isFinite(value) || value < 0) {
                throw fracValue.error("prefill_busy_threshold_frac must be finite and non-negative");
            }
            frac = OptionalDouble.of(value);
        }
        YamlValue family = map.get("policy_family");
        YamlValue bucket = map.get("cache_bucket");
        String familyName = null;
        String bucketName = null;
        if ((family == null) != (bucket == null)) {
            YamlValue present = family == null ? bucket : family;
            throw present.error("policy class " + KeyPath.quote(name)
                + " must specify both policy_family and cache_bucket or neither for an explicit class");
        }
        if (family != null) {
            familyName = family.identifier("policy family");
            bucketName = bucket.identifier("cache bucket");
            if (!bucketIndex.containsKey(bucketName)) {
                throw bucket.error("policy class " + KeyPath.quote(name) + " references unknown cache bucket "
                    + KeyPath.quote(bucketName));
            }
        }
        PolicyClassSpec spec = new PolicyClassSpec(name, familyName, bucketName, queuePolicy, quantum,
            optionalLong(map, "prefill_busy_threshold"), frac, optionalLong(map, "request_queue_limit_per_worker"),
            optionalLong(map, "raw_isl_token_queue_limit_per_worker"),
            optionalLong(map, "cached_token_queue_limit_per_worker"),
            TenantFairnessReader.read(map.get("tenant_fairness"), map.get("vtc")), preemption(map));
        return new ParsedClass(spec, nameValue, family);
    }

    /** {@code fcfs} (the default) or {@code wspt}; {@code lcfs} is a Dynamo queue policy but not a class policy. */
    private static QueuePolicy queuePolicy(YamlValue value) throws ConfigException {
        if (value == null) {
            return QueuePolicy.FCFS;
        }
        String text = value.string();
        return switch (text) {
            case "fcfs" -> QueuePolicy.FCFS;
            case "wspt" -> QueuePolicy.WSPT;
            case "lcfs" -> throw value.error("queue_policy must be fcfs or wspt");
            default -> throw value.error("queue_policy must be fcfs or wspt, found " + KeyPath.quote(text));
        };
    }

    /** {@code preemptible} (a boolean, default false) and {@code preemption_priority} (an integer, default 0). */
    private static ClassPreemption preemption(YamlMap map) throws ConfigException {
        YamlValue preemptible = map.get("preemptible");
        YamlValue priority = map.get("preemption_priority");
        if (preemptible == null && priority == null) {
            return ClassPreemption.NONE;
        }
        return new ClassPreemption(preemptible != null && preemptible.bool(),
            priority == null ? 0 : priority.nonNegativeLong());
    }

    private static OptionalLong optionalLong(YamlMap map, String key) throws ConfigException {
        YamlValue value = map.get(key);
        return value == null ? OptionalLong.empty() : OptionalLong.of(value.nonNegativeLong());
    }
}
