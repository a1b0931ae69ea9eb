package dev.sluice.core.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and validates a policy profile, the root one or a model's (dynamo.md §4.2–4.3): its
 * {@code default_policy_family}, {@code uncached_isl_buckets} and {@code policy_classes}. Messages carry Dynamo's
 * texts; the key path says which profile. Stateless.
 */
final class ProfileReader {
    static final List<String> KEYS = List.of("default_policy_family", "uncached_isl_buckets", "policy_classes");
    private static final List<String> BUCKET_KEYS = List.of("min_tokens", "bucket");

    private ProfileReader() {
    }

    /** Reads the three profile keys of {@code map}; the caller has rejected other keys. */
    static PolicyProfile read(YamlMap map) throws ConfigException {
        YamlValue defaultValue = map.require("default_policy_family");
        String defaultFamily = defaultValue.identifier("policy family");
        List<CacheBucket> buckets = buckets(map.require("uncached_isl_buckets"));
        Map<String, Integer> bucketIndex = new HashMap<>();
        for (CacheBucket bucket : buckets) {
            bucketIndex.put(bucket.name(), bucketIndex.size());
        }
        YamlValue classesValue = map.require("policy_classes");
        List<PolicyClassReader.ParsedClass> parsed = classes(classesValue, bucketIndex);
        Set<String> families = new LinkedHashSet<>();
        for (PolicyClassReader.ParsedClass one : parsed) {
            if (one.spec().isMatrixClass()) {
                families.add(one.spec().policyFamily());
            }
        }
        if (!families.contains(defaultFamily)) {
            throw defaultValue.error("default_policy_family " + KeyPath.quote(defaultFamily)
                + " does not name a configured family");
        }
        checkMatrix(parsed, families, buckets, classesValue);
        List<PolicyClassSpec> specs = new ArrayList<>(parsed.size());
        for (PolicyClassReader.ParsedClass one : parsed) {
            specs.add(one.spec());
        }
        try {
            return PolicyProfile.of(defaultFamily, buckets, specs);
        } catch (IllegalArgumentException e) {
            // The checks above cover every invariant the constructor re-checks; this keeps a gap a config error.
            throw map.error(e.getMessage());
        }
    }

    private static List<CacheBucket> buckets(YamlValue value) throws ConfigException {
        List<YamlValue> items = value.list();
        if (items.isEmpty()) {
            throw value.error("uncached_isl_buckets must not be empty");
        }
        List<CacheBucket> buckets = new ArrayList<>(items.size());
        Set<String> names = new HashSet<>();
        for (YamlValue item : items) {
            YamlMap map = item.map().allowOnly(BUCKET_KEYS);
            YamlValue minValue = map.require("min_tokens");
            long minTokens = minValue.nonNegativeLong();
            YamlValue nameValue = map.require("bucket");
            String name = nameValue.identifier("cache bucket");
            if (buckets.isEmpty() && minTokens != 0) {
                throw minValue.error("uncached_isl_buckets must start at min_tokens 0");
            }
            if (!buckets.isEmpty() && minTokens <= buckets.get(buckets.size() - 1).minTokens()) {
                throw minValue.error("uncached_isl_buckets min_tokens must be strictly increasing");
            }
            if (!names.add(name)) {
                throw nameValue.error("contains duplicate cache bucket " + KeyPath.quote(name));
            }
            buckets.add(new CacheBucket(minTokens, name));
        }
        return buckets;
    }

    private static List<PolicyClassReader.ParsedClass> classes(YamlValue value, Map<String, Integer> bucketIndex)
        throws ConfigException {
        List<YamlValue> items = value.list();
        if (items.isEmpty()) {
            throw value.error("policy_classes must not be empty");
        }
        List<PolicyClassReader.ParsedClass> parsed = new ArrayList<>(items.size());
        Set<String> names = new HashSet<>();
        for (YamlValue item : items) {
            PolicyClassReader.ParsedClass one = PolicyClassReader.read(item, bucketIndex);
            if (!names.add(one.spec().name())) {
                throw one.name().error("contains duplicate policy class " + KeyPath.quote(one.spec().name()));
            }
            parsed.add(one);
        }
        return parsed;
    }

    /** Explicit names must not shadow families; every family needs exactly one class per bucket. */
    private static void checkMatrix(List<PolicyClassReader.ParsedClass> parsed, Set<String> families,
                                    List<CacheBucket> buckets, YamlValue classesValue) throws ConfigException {
        Set<String> pairs = new HashSet<>();
        for (PolicyClassReader.ParsedClass one : parsed) {
            PolicyClassSpec spec = one.spec();
            if (!spec.isMatrixClass()) {
                if (families.contains(spec.name())) {
                    throw one.name().error("explicit policy class " + KeyPath.quote(spec.name())
                        + " collides with a policy family");
                }
            } else if (!pairs.add(pair(spec.policyFamily(), spec.cacheBucket()))) {
                throw one.family().error("contains duplicate policy classes for family "
                    + KeyPath.quote(spec.policyFamily()) + " and bucket " + KeyPath.quote(spec.cacheBucket()));
            }
        }
        for (String family : families) {
            for (CacheBucket bucket : buckets) {
                if (!pairs.contains(pair(family, bucket.name()))) {
                    throw classesValue.error("is missing a policy class for family " + KeyPath.quote(family)
                        + " and bucket " + KeyPath.quote(bucket.name()));
                }
            }
        }
    }

    private static String pair(String family, String bucket) {
        // Identifiers cannot contain '/', so the joined key is unambiguous.
        return family + "/" + bucket;
    }
}
