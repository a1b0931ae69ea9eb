package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hand-off of the duty cycle between the scheduler thread and producers, interleaved step by step on the test's
 * thread: the scheduler side ({@code doWork}, {@code idle}) and the producer side ({@code afterPublish}) are called
 * in a chosen order against a scripted cycle that counts pending messages and fails on a nested or concurrent entry.
 */
class CombiningSchedulerTest {
    /** A duty cycle over a counter of pending messages; a cycle may publish more, as a listener callback does. */
    static final class ScriptedCycle implements CombiningScheduler.Scheduled {
        final List<String> log = new ArrayList<>();
        CombiningScheduler role;
        int pending;
        int inside;
        int cycles;
        /** Whether a timer, periodic task or queue deadline is pending. */
        boolean timed = true;
        Runnable duringCycle = () -> { };

        @Override
        public int doWork() {
            return cycle("cycle by ");
        }

        @Override
        public int doWork(long lifecycleId, long ingressAt, AdmissionRequest request, AdmissionListener listener) {
            return 1 + cycle("arrival " + lifecycleId + " then cycle by ");
        }

        private int cycle(String entry) {
            if (inside++ != 0) {
                throw new AssertionError("two duty cycles at once");
            }
            try {
                cycles++;
                log.add(entry + role.owner());
                int handled = pending;
                pending = 0;
                Runnable hook = duringCycle;
                duringCycle = () -> { };
                hook.run();
                return handled;
            } finally {
                inside--;
            }
        }

        @Override
        public boolean hasPendingWork() {
            return pending > 0;
        }

        @Override
        public boolean hasTimedWork() {
            return timed;
        }

        @Override
        public String roleName() {
            return "scripted";
        }
    }

    private static final long UNTIMED_PARK_NS = 50_000_000L;

    private final List<Long> parks = new ArrayList<>();
    private final ScriptedCycle cycle = new ScriptedCycle();

    private CombiningScheduler role(long spinNs) {
        CombiningScheduler role = new CombiningScheduler(spinNs, 1_000_000L, UNTIMED_PARK_NS, parks::add);
        role.attach(cycle);
        cycle.role = role;
        return role;
    }

    @Test
    void shouldLeaveAMessageToTheSchedulerThreadWhileItHoldsTheRole() throws Exception {
        CombiningScheduler role = role(Long.MAX_VALUE);
        assertEquals(0, role.doWork());
        assertEquals(CombiningScheduler.SCHEDULER, role.owner());
        cycle.pending = 1;
        role.afterPublish();
        assertEquals(1, cycle.cycles, "the producer ran no cycle");
        assertEquals(1, role.doWork());
        role.idle(0);
        assertEquals(CombiningScheduler.SCHEDULER, role.owner(), "still within the spin window");
        assertTrue(parks.isEmpty());
    }

    @Test
    void shouldRunTheCycleOnTheProducerOnceTheSchedulerGaveTheRoleUp() throws Exception {
        CombiningScheduler role = role(0);
        role.doWork();
        role.idle(0);
        assertEquals(CombiningScheduler.FREE, role.owner());
        assertEquals(List.of(1_000_000L), parks, "nothing pending: parked");
        cycle.pending = 1;
        role.afterPublish();
        assertEquals(List.of("cycle by " + CombiningScheduler.SCHEDULER, "cycle by " + CombiningScheduler.PRODUCER),
            cycle.log);
        assertEquals(0, cycle.pending);
        assertEquals(CombiningScheduler.FREE, role.owner(), "released after the producer's cycle");
        assertEquals(0, role.doWork(), "the scheduler takes the free role back");
        assertEquals(CombiningScheduler.SCHEDULER, role.owner());
    }

    @Test
    void shouldNotParkWhenAMessageCameBeforeTheRoleWasFree() throws Exception {
        CombiningScheduler role = role(0);
        role.doWork();
        // Published while the scheduler held the role: the producer left it there.
        cycle.pending = 1;
        role.afterPublish();
        role.idle(0);
        assertTrue(parks.isEmpty(), "pending work seen after giving the role up");
        assertEquals(1, role.doWork(), "the next cycle takes the role back and the message");
    }

    @Test
    void shouldLeaveTheRoleToAProducerThatTookItFirst() throws Exception {
        CombiningScheduler role = role(0);
        role.doWork();
        role.idle(0);
        parks.clear();
        cycle.pending = 1;
        int[] schedulerWork = {-1};
        // While the producer runs its cycle the scheduler thread wakes: it runs no cycle and parks again.
        cycle.duringCycle = () -> {
            try {
                schedulerWork[0] = role.doWork();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            role.idle(0);
        };
        role.afterPublish();
        assertEquals(0, schedulerWork[0]);
        assertEquals(List.of(1_000_000L), parks);
        assertEquals(List.of("cycle by " + CombiningScheduler.SCHEDULER, "cycle by " + CombiningScheduler.PRODUCER),
            cycle.log);
        assertEquals(0, role.doWork(), "the free role back on the scheduler thread");
        assertEquals(CombiningScheduler.SCHEDULER, role.owner());
    }

    @Test
    void shouldHandleMessagesPublishedDuringTheProducersCycleWithoutNesting() {
        CombiningScheduler role = role(0);
        cycle.pending = 1;
        // The dispatch callback publishes a completion from inside the producer's own cycle: the nested call returns,
        // and the owner's loop runs the cycle that takes it.
        cycle.duringCycle = () -> {
            cycle.pending = 1;
            role.afterPublish();
            assertEquals(CombiningScheduler.PRODUCER, role.owner());
        };
        role.afterPublish();
        assertEquals(2, cycle.cycles);
        assertEquals(0, cycle.pending);
        assertEquals(CombiningScheduler.FREE, role.owner());
    }

    @Test
    void shouldHandTheRestToTheSchedulerThreadAfterTheProducersCycles() throws Exception {
        CombiningScheduler role = role(0);
        role.doWork();
        role.idle(0);
        Runnable[] more = new Runnable[1];
        more[0] = () -> {
            cycle.pending = 1;
            cycle.duringCycle = more[0];
        };
        cycle.pending = 1;
        cycle.duringCycle = more[0];
        role.afterPublish();
        assertEquals(1 + CombiningScheduler.MAX_PRODUCER_CYCLES, cycle.cycles, "bounded on the producer");
        assertTrue(cycle.hasPendingWork());
        assertEquals(CombiningScheduler.FREE, role.owner(), "free for the woken scheduler thread");
        assertTrue(role.doWork() > 0);
        assertEquals(CombiningScheduler.SCHEDULER, role.owner());
    }

    @Test
    void shouldHandAnArrivalDirectlyToTheCycleOnlyWhenTheRoleIsFreeAndNothingIsPending() throws Exception {
        CombiningScheduler role = role(0);
        assertTrue(role.arriveIfIdle(7, 0, null, null));
        assertEquals(List.of("arrival 7 then cycle by " + CombiningScheduler.PRODUCER), cycle.log);
        assertEquals(CombiningScheduler.FREE, role.owner());

        cycle.log.clear();
        cycle.pending = 1;
        assertFalse(role.arriveIfIdle(8, 0, null, null), "work pending: the arrival goes behind it on the ring");
        assertEquals(List.of("cycle by " + CombiningScheduler.PRODUCER), cycle.log, "the pending work ran first");
        assertEquals(CombiningScheduler.FREE, role.owner());

        cycle.log.clear();
        role.doWork();
        assertFalse(role.arriveIfIdle(9, 0, null, null), "the scheduler thread holds the role");
        assertEquals(List.of("cycle by " + CombiningScheduler.SCHEDULER), cycle.log, "no cycle on the producer");
    }

    @Test
    void shouldLeaveAnArrivalFromInsideTheProducersOwnCycleToTheRing() {
        CombiningScheduler role = role(0);
        boolean[] nested = {true};
        // A callback of the direct cycle submits again: the role is held, so that arrival is published instead.
        cycle.duringCycle = () -> {
            nested[0] = role.arriveIfIdle(2, 0, null, null);
            cycle.pending = 1;
            role.afterPublish();
        };
        assertTrue(role.arriveIfIdle(1, 0, null, null));
        assertFalse(nested[0]);
        assertEquals(List.of("arrival 1 then cycle by " + CombiningScheduler.PRODUCER,
            "cycle by " + CombiningScheduler.PRODUCER), cycle.log, "the published one in the owner's next cycle");
        assertEquals(CombiningScheduler.FREE, role.owner());
    }

    @Test
    void shouldParkLongWithNothingTimedAndBeWokenOnceByTheProducerThatLeavesTimedWork() throws Exception {
        CombiningScheduler role = role(0);
        cycle.timed = false;
        role.doWork();
        role.idle(0);
        assertEquals(List.of(UNTIMED_PARK_NS), parks, "no timer, task or deadline: the long park");
        assertTrue(role.parkedLong());

        cycle.pending = 1;
        role.afterPublish();
        assertTrue(role.parkedLong(), "the producer's cycle left nothing timed: the scheduler thread sleeps on");

        cycle.pending = 1;
        cycle.duringCycle = () -> cycle.timed = true;
        role.afterPublish();
        assertFalse(role.parkedLong(), "a deadline left behind: the producer woke the scheduler thread");
        cycle.pending = 1;
        role.afterPublish();
        assertFalse(role.parkedLong(), "woken once");

        parks.clear();
        assertEquals(0, role.doWork());
        role.idle(0);
        assertEquals(List.of(1_000_000L), parks, "timed work pending: the short park");
        assertFalse(role.parkedLong());
    }

    @Test
    void shouldKeepTheRoleForGoodOnceClosed() throws Exception {
        CombiningScheduler role = role(0);
        role.onClose();
        assertEquals(CombiningScheduler.SCHEDULER, role.owner());
        cycle.pending = 1;
        role.afterPublish();
        assertFalse(role.arriveIfIdle(1, 0, null, null));
        assertFalse(cycle.log.contains("cycle by " + CombiningScheduler.PRODUCER), "no producer cycle after close");
    }
}
