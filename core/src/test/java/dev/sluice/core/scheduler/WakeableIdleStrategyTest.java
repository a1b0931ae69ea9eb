package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The hand-off between producers and a scheduler that spins, yields and parks. The scheduler parks for an hour, so a
 * lost wake-up is a hang that the generous waits below turn into a failure; nothing here measures time.
 */
class WakeableIdleStrategyTest {
    private static final long AN_HOUR = TimeUnit.HOURS.toNanos(1);
    private static final int PRODUCERS = 8;
    private static final int ROUNDS = 2_000;

    @Test
    void shouldNeverLoseAWakeUpWhenManyProducersHandWorkToASchedulerThatParksAfterEachItem() throws Exception {
        // No spin or yield window: the scheduler heads for park after every item, the race the flag must win.
        WakeableIdleStrategy idle = new WakeableIdleStrategy(0, 0, AN_HOUR);
        AtomicLong published = new AtomicLong();
        AtomicLong consumed = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        idle.pendingWork(() -> published.get() > consumed.get() || stop.get());
        Thread scheduler = new Thread(() -> {
            while (!stop.get()) {
                long available = published.get();
                long done = consumed.get();
                int work = (int) (available - done);
                consumed.set(available);
                idle.idle(work);
            }
        }, "test-scheduler");
        scheduler.start();
        CountDownLatch finished = new CountDownLatch(PRODUCERS);
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            Thread producer = new Thread(() -> {
                for (int round = 0; round < ROUNDS; round++) {
                    long mine = published.incrementAndGet();
                    idle.wake();
                    // Wait until the scheduler took it: between rounds it goes back to park.
                    while (consumed.get() < mine) {
                        Thread.onSpinWait();
                    }
                }
                finished.countDown();
            }, "test-producer-" + p);
            producers.add(producer);
            producer.start();
        }
        boolean done = finished.await(2, TimeUnit.MINUTES);
        stop.set(true);
        idle.wake();
        // Free the scheduler from its hour-long park, whatever happened.
        LockSupport.unpark(scheduler);
        scheduler.join(TimeUnit.MINUTES.toMillis(1));
        for (Thread producer : producers) {
            producer.join(TimeUnit.MINUTES.toMillis(1));
        }
        assertTrue(done, "a wake-up was lost: " + consumed.get() + " of " + published.get() + " items taken");
        assertEquals((long) PRODUCERS * ROUNDS, consumed.get());
    }

    @Test
    void shouldNotParkWhenWorkArrivedBetweenTheLastPollAndTheParkedFlag() {
        WakeableIdleStrategy idle = new WakeableIdleStrategy(0, 0, AN_HOUR);
        idle.pendingWork(() -> true);
        for (int i = 0; i < 10; i++) {
            // Each call reaches the park phase, sees the work and returns at once instead of parking for an hour.
            idle.idle(0);
        }
        assertFalse(idle.isParked(), "the flag is cleared once the scheduler goes back to work");
    }

    @Test
    void shouldNotBeParkedWhileSpinning() {
        WakeableIdleStrategy idle = new WakeableIdleStrategy(AN_HOUR, 0, AN_HOUR);
        idle.pendingWork(() -> {
            throw new AssertionError("a spinning scheduler does not look for work before parking");
        });
        for (int i = 0; i < 1_000; i++) {
            idle.idle(0);
        }
        assertFalse(idle.isParked());
        idle.wake();
        idle.idle(1);
        idle.idle(0);
        assertFalse(idle.isParked());
    }

    @Test
    void shouldRejectNegativeWindowsAndANonPositivePark() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> new WakeableIdleStrategy(-1, 0, 1));
        assertTrue(error.getMessage().contains("spinNs"), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(0, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(0, 0, 0));
    }
}
