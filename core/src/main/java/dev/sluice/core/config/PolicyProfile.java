package dev.sluice.core.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What one model router queues by: cache buckets, policy families and physical classes. Class order is the DRR
 * ring order; families are indexed in order of first appearance. Immutable; the resolve methods allocate nothing.
 *
 * <p>A profile is either configured (root or model profile of the YAML) or {@linkplain #synthetic synthetic}: the
 * single class {@code default} used when no profile applies.
 */
public final class PolicyProfile {
    /** The name of the synthetic profile's only class. */
    public static final String DEFAULT_CLASS = "default";

    private final String defaultPolicyFamily;
    private final List<CacheBucket> buckets;
    private final List<PolicyClassSpec> classes;
    private final boolean synthetic;
    private final List<String> families;
    private final Map<String, Integer> familyIndex;
    private final Map<String, Integer> explicitIndex;
    private final long[] bucketFloors;
    private final int[][] matrix;
    private final int defaultFamily;

    private PolicyProfile(String defaultPolicyFamily, List<CacheBucket> buckets, List<PolicyClassSpec> classes,
                          boolean synthetic) {
        this.defaultPolicyFamily = defaultPolicyFamily;
        this.buckets = List.copyOf(buckets);
        this.classes = List.copyOf(classes);
        this.synthetic = synthetic;
        if (this.classes.isEmpty()) {
            throw new IllegalArgumentException("policy_classes must not be empty");
        }
        Map<String, Integer> bucketIndex = new HashMap<>();
        bucketFloors = new long[this.buckets.size()];
        for (int i = 0; i < this.buckets.size(); i++) {
            bucketFloors[i] = this.buckets.get(i).minTokens();
            bucketIndex.put(this.buckets.get(i).name(), i);
        }
        LinkedHashMap<String, Integer> familyOrder = new LinkedHashMap<>();
        Map<String, Integer> explicit = new HashMap<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < this.classes.size(); i++) {
            PolicyClassSpec spec = this.classes.get(i);
            if (!names.add(spec.name())) {
                throw new IllegalArgumentException("contains duplicate policy class \"" + spec.name() + "\"");
            }
            if (spec.isMatrixClass()) {
                familyOrder.putIfAbsent(spec.policyFamily(), familyOrder.size());
            } else {
                explicit.put(spec.name(), i);
            }
        }
        this.families = List.copyOf(familyOrder.keySet());
        this.familyIndex = Map.copyOf(familyOrder);
        this.explicitIndex = Map.copyOf(explicit);
        this.matrix = new int[families.size()][this.buckets.size()];
        for (int[] row : matrix) {
            java.util.Arrays.fill(row, -1);
        }
        for (int i = 0; i < this.classes.size(); i++) {
            PolicyClassSpec spec = this.classes.get(i);
            if (spec.isMatrixClass()) {
                Integer bucket = bucketIndex.get(spec.cacheBucket());
                if (bucket == null) {
                    throw new IllegalArgumentException("policy class \"" + spec.name()
                        + "\" references unknown cache bucket \"" + spec.cacheBucket() + "\"");
                }
                int family = familyIndex.get(spec.policyFamily());
                if (matrix[family][bucket] >= 0) {
                    // Without this a second class for the same pair would silently replace the first.
                    throw new IllegalArgumentException("contains duplicate policy classes for family \""
                        + spec.policyFamily() + "\" and bucket \"" + spec.cacheBucket() + "\"");
                }
                matrix[family][bucket] = i;
            }
        }
        for (int f = 0; f < families.size(); f++) {
            for (int b = 0; b < this.buckets.size(); b++) {
                if (matrix[f][b] < 0) {
                    throw new IllegalArgumentException("is missing a policy class for family \"" + families.get(f)
                        + "\" and bucket \"" + this.buckets.get(b).name() + "\"");
                }
            }
        }
        Integer def = defaultPolicyFamily == null ? null : familyIndex.get(defaultPolicyFamily);
        if (!synthetic && def == null) {
            throw new IllegalArgumentException("default_policy_family \"" + defaultPolicyFamily
                + "\" does not name a configured family");
        }
        this.defaultFamily = def == null ? -1 : def;
    }

    /** A configured profile; the loader has validated it, the constructor re-checks the structural invariants. */
    public static PolicyProfile of(String defaultPolicyFamily, List<CacheBucket> buckets,
                                   List<PolicyClassSpec> classes) {
        return new PolicyProfile(Objects.requireNonNull(defaultPolicyFamily, "defaultPolicyFamily"), buckets, classes,
            false);
    }

    /**
     * The profile used when no YAML profile applies: one class {@code default} with quantum 1, the given queue
     * policy, and {@code prefill_busy_threshold_frac} = {@code --router-queue-threshold} (empty: never queue).
     */
    public static PolicyProfile synthetic(OptionalDouble queueThreshold, QueuePolicy queuePolicy) {
        PolicyClassSpec only = new PolicyClassSpec(DEFAULT_CLASS, null, null, queuePolicy, 1,
            java.util.OptionalLong.empty(), queueThreshold, java.util.OptionalLong.empty(),
            java.util.OptionalLong.empty(), java.util.OptionalLong.empty());
        return new PolicyProfile(null, List.of(), List.of(only), true);
    }

    /** True for the synthetic single-class profile. */
    public boolean isSynthetic() {
        return synthetic;
    }

    /** The default family, or {@code null} for the synthetic profile. */
    public String defaultPolicyFamily() {
        return defaultPolicyFamily;
    }

    public List<CacheBucket> buckets() {
        return buckets;
    }

    /** The physical classes in DRR ring order. */
    public List<PolicyClassSpec> classes() {
        return classes;
    }

    /** The families in order of first appearance. */
    public List<String> families() {
        return families;
    }

    /** The index of the highest bucket whose floor is at most {@code uncachedTokens} (0 when there are none). */
    public int bucketIndex(long uncachedTokens) {
        int found = 0;
        for (int i = 1; i < bucketFloors.length; i++) {
            if (bucketFloors[i] <= uncachedTokens) {
                found = i;
            } else {
                break;
            }
        }
        return found;
    }

    /**
     * The header path: an explicit class name wins; else a family; else (missing, empty, unknown or a matrix class
     * name) the default family. The bucket comes from {@code uncachedTokens}. Always resolves.
     */
    public int resolveLenient(String requested, long uncachedTokens) {
        if (synthetic) {
            return 0;
        }
        if (requested != null) {
            Integer explicit = explicitIndex.get(requested);
            if (explicit != null) {
                return explicit;
            }
            Integer family = familyIndex.get(requested);
            if (family != null) {
                return matrix[family][bucketIndex(uncachedTokens)];
            }
        }
        return matrix[defaultFamily][bucketIndex(uncachedTokens)];
    }

    /**
     * The classifier-override path: {@code name} must be a family or an explicit class of this profile (for the
     * synthetic profile only {@code default}). Returns -1 for anything else, including a matrix class name.
     */
    public int resolveStrict(String name, long uncachedTokens) {
        if (name == null) {
            return -1;
        }
        if (synthetic) {
            return DEFAULT_CLASS.equals(name) ? 0 : -1;
        }
        Integer explicit = explicitIndex.get(name);
        if (explicit != null) {
            return explicit;
        }
        Integer family = familyIndex.get(name);
        return family == null ? -1 : matrix[family][bucketIndex(uncachedTokens)];
    }

    /** The class index for a name, or -1 (any physical class, for metrics and tests). */
    public int classIndex(String physicalName) {
        for (int i = 0; i < classes.size(); i++) {
            if (classes.get(i).name().equals(physicalName)) {
                return i;
            }
        }
        return -1;
    }

    /** True when any class enables queueing (a busy threshold is set). */
    public boolean anyQueueing() {
        for (PolicyClassSpec spec : classes) {
            if (spec.queueingEnabled()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        List<String> names = new ArrayList<>();
        for (PolicyClassSpec spec : classes) {
            names.add(spec.name());
        }
        return "PolicyProfile[" + (synthetic ? "synthetic" : "default family " + defaultPolicyFamily) + ", classes "
            + names + "]";
    }
}
