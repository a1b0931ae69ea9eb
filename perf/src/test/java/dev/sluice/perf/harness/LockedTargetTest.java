package dev.sluice.perf.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The harness's {@code sluice-locked} target: each submit runs sluice's duty cycles on the caller's thread until its
 * request was dispatched and its instant completion taken, so every request has its outcome when submit returns, and
 * request ids can be reused once their request is done.
 */
class LockedTargetTest {
    @Test
    void shouldDispatchAndCompleteEachRequestBeforeSubmitReturns() {
        LatencyProbe probe = new LatencyProbe(Long.MIN_VALUE, Long.MAX_VALUE);
        try (Target target = Target.create("sluice-locked")) {
            Pending[] slots = new Pending[8];
            for (int s = 0; s < slots.length; s++) {
                slots[s] = new Pending(probe, target.engine(), "slot-" + s);
            }
            for (int i = 0; i < 1_000; i++) {
                slots[i % slots.length].intended = System.nanoTime();
                target.submit(slots[i % slots.length]);
                assertEquals(i + 1, probe.outcomes(), "request " + i);
            }
        }
        assertEquals(0, probe.rejectedCount(), "an id in use again before its request completed would be refused");
        assertEquals(1_000, probe.windowDispatched());
    }
}
