package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The records re-check their invariants when built by hand, so a test or a plugin cannot build a broken profile. */
class PolicyRecordsTest {

    @Test
    void shouldRejectSecondClassForTheSameFamilyAndBucketInsteadOfReplacingTheFirst() {
        List<CacheBucket> buckets = List.of(new CacheBucket(0, "all"));
        List<PolicyClassSpec> classes = List.of(matrix("a"), matrix("b"));

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> PolicyProfile.of("standard", buckets, classes));

        assertEquals("contains duplicate policy classes for family \"standard\" and bucket \"all\"",
            error.getMessage());
    }

    @Test
    void shouldRejectDuplicateClassNames() {
        List<PolicyClassSpec> classes = List.of(matrix("a"), PolicyClassSpec.explicit("a", QueuePolicy.FCFS, 1));

        assertThrows(IllegalArgumentException.class,
            () -> PolicyProfile.of("standard", List.of(new CacheBucket(0, "all")), classes));
    }

    @Test
    void shouldRejectNonFiniteFracAndNegativeLimits() {
        assertThrows(IllegalArgumentException.class, () -> spec(OptionalDouble.of(Double.NaN), OptionalLong.empty()));
        assertThrows(IllegalArgumentException.class, () -> spec(OptionalDouble.of(-1), OptionalLong.empty()));
        assertThrows(IllegalArgumentException.class, () -> spec(OptionalDouble.empty(), OptionalLong.of(-1)));
    }

    @Test
    void shouldLookUpWorkerSelectionRolesAndInstances() throws ConfigException {
        WorkerSelectionConfig selection = ConfigFixtures.parse("""
            worker_selection:
              aggregated: picker
              instances:
                - {name: picker, type: cache-aware}
            """).workerSelection().orElseThrow();

        assertEquals("picker", selection.instanceFor("aggregated"));
        assertNull(selection.instanceFor("prefill"));
        assertEquals("cache-aware", selection.instance("picker").plugin().type());
        assertNull(selection.instance("other"));
    }

    private static PolicyClassSpec matrix(String name) {
        return new PolicyClassSpec(name, "standard", "all", QueuePolicy.FCFS, 1, OptionalLong.empty(),
            OptionalDouble.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
    }

    private static PolicyClassSpec spec(OptionalDouble frac, OptionalLong limit) {
        return new PolicyClassSpec("a", null, null, QueuePolicy.FCFS, 1, OptionalLong.empty(), frac, limit,
            OptionalLong.empty(), OptionalLong.empty());
    }
}
