package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The guard's handshake on explicit times, on one thread: the watchdog's side is called by the test, so the
 * interrupt lands on the test thread and must be cleared by {@code end}.
 */
class PluginCallGuardTest {
    private final PluginCallGuard guard = new PluginCallGuard(100);

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void shouldLeaveACallWithinTheTimeoutAlone() {
        guard.begin(1_000);
        assertFalse(guard.cutIfOverdue(1_100), "exactly at the timeout is not past it");
        assertFalse(Thread.currentThread().isInterrupted());
        assertFalse(guard.end());
        assertEquals(0, guard.cuts());
    }

    @Test
    void shouldInterruptAnOverdueCallAndClearTheInterruptWhenItEnds() {
        guard.begin(1_000);
        assertTrue(guard.cutIfOverdue(1_101));
        assertTrue(Thread.currentThread().isInterrupted(), "the caller is interrupted");
        assertFalse(guard.cutIfOverdue(5_000), "a call is cut once");

        assertTrue(guard.end());
        assertFalse(Thread.currentThread().isInterrupted(), "the interrupt does not outlive the call");
        assertEquals(1, guard.cuts());
    }

    @Test
    void shouldNotCutACallThatHasEnded() {
        guard.begin(1_000);
        assertFalse(guard.end());
        assertFalse(guard.cutIfOverdue(10_000));
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void shouldTimeEachCallFromItsOwnStart() {
        guard.begin(1_000);
        guard.end();
        guard.begin(9_950);
        assertFalse(guard.cutIfOverdue(10_000), "the second call is 50 ns old");
        assertFalse(guard.end());
    }

    @Test
    void shouldRefuseANonPositiveTimeout() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PluginCallGuard(0));
        assertEquals("the plugin call timeout must be > 0 ns, was 0", e.getMessage());
    }
}
