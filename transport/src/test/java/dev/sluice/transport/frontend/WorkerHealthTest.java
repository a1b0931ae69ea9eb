package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.testing.TestClocks;
import dev.sluice.transport.engine.ProbeResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

/**
 * The health state machine on a manual clock and timer, with a scripted probe: no threads, no sleeps. The timeline
 * of each test reads in milliseconds since the start.
 */
class WorkerHealthTest {
    private final CachedNanoClock clock = TestClocks.at(0);
    private final ManualTimer timer = new ManualTimer(clock);
    private final List<String> events = new ArrayList<>();
    private final boolean[] up = {true, true};
    private final List<String> probes = new ArrayList<>();
    private RuntimeException probeThrows;

    /** Runs scheduled tasks when the test advances the clock past their due time, in due order. */
    static final class ManualTimer implements WorkerHealth.Timer {
        private record Task(long dueAt, long order, Runnable body) {
        }

        private final CachedNanoClock clock;
        private final List<Task> tasks = new ArrayList<>();
        private long scheduled;
        boolean closed;

        ManualTimer(CachedNanoClock clock) {
            this.clock = clock;
        }

        @Override
        public void schedule(Runnable task, long delayNs) {
            tasks.add(new Task(clock.nanoTime() + delayNs, scheduled++, task));
        }

        /** Moves the clock on by {@code millis}, stopping at each task's due time to run it. */
        void advance(long millis) {
            long end = clock.nanoTime() + millis * 1_000_000;
            while (true) {
                Task next = tasks.stream().filter(t -> t.dueAt() <= end)
                    .min(Comparator.comparingLong(Task::dueAt).thenComparingLong(Task::order)).orElse(null);
                if (next == null) {
                    break;
                }
                tasks.remove(next);
                clock.update(next.dueAt());
                next.body().run();
            }
            clock.update(end);
        }

        int pending() {
            return tasks.size();
        }

        @Override
        public void close() {
            closed = true;
            tasks.clear();
        }
    }

    private WorkerHealth health(int threshold, long firstMs, long maxMs) {
        WorkerHealthSettings settings = new WorkerHealthSettings(threshold, Duration.ofMillis(firstMs),
            Duration.ofMillis(maxMs));
        return new WorkerHealth(settings, List.of("http://a:1", "http://b:2"), this::probe,
            new WorkerHealth.Listener() {
                @Override
                public void onUnhealthy(int worker) {
                    events.add(now() + " left " + worker);
                }

                @Override
                public void onRecovered(int worker) {
                    events.add(now() + " joined " + worker);
                }
            }, clock, timer);
    }

    private ProbeResult probe(int worker) {
        probes.add(now() + " probe " + worker);
        if (probeThrows != null) {
            throw probeThrows;
        }
        return up[worker] ? ProbeResult.REACHABLE : ProbeResult.unreachable("the engine refused the connection");
    }

    private long now() {
        return clock.nanoTime() / 1_000_000;
    }

    private static void fail(WorkerHealth health, int worker, int times) {
        for (int i = 0; i < times; i++) {
            health.onFailure(worker, "the engine answered HTTP 500");
        }
    }

    @Test
    void shouldLeaveTheRouterOnceAfterThresholdConsecutiveFailures() {
        WorkerHealth health = health(3, 1000, 30_000);
        fail(health, 1, 2);
        assertEquals(List.of(), events);
        assertTrue(health.healthy(1));

        fail(health, 1, 1);
        assertEquals(List.of("0 left 1"), events);
        assertFalse(health.healthy(1));
        assertEquals(1, health.unhealthyCount());

        fail(health, 1, 5);
        assertEquals(List.of("0 left 1"), events, "failures of requests still running change nothing");
        assertEquals(1, timer.pending(), "one probe scheduled");
    }

    @Test
    void shouldResetTheCountOnASuccess() {
        WorkerHealth health = health(3, 1000, 30_000);
        fail(health, 0, 2);
        health.onSuccess(0);
        fail(health, 0, 2);
        assertEquals(List.of(), events);
        assertTrue(health.healthy(0));

        fail(health, 0, 1);
        assertEquals(List.of("0 left 0"), events);
    }

    @Test
    void shouldProbeWithDoublingIntervalsUpToTheCap() {
        WorkerHealth health = health(1, 1000, 4000);
        up[0] = false;
        fail(health, 0, 1);

        timer.advance(999);
        assertEquals(List.of(), probes);
        timer.advance(20_001);

        assertEquals(List.of("1000 probe 0", "3000 probe 0", "7000 probe 0", "11000 probe 0", "15000 probe 0",
            "19000 probe 0"), probes);
        assertEquals(List.of("0 left 0"), events);
        assertEquals(Duration.ofSeconds(2).toNanos(), health.nanosUntilNextProbe(), "at 21000, the next at 23000");
    }

    @Test
    void shouldRejoinWhenAProbeSucceedsAndStartAfreshAfterwards() {
        WorkerHealth health = health(2, 1000, 30_000);
        up[1] = false;
        fail(health, 1, 2);
        timer.advance(3500);
        up[1] = true;
        timer.advance(10_000);

        assertEquals(List.of("1000 probe 1", "3000 probe 1", "7000 probe 1"), probes);
        assertEquals(List.of("0 left 1", "7000 joined 1"), events);
        assertTrue(health.healthy(1));
        assertEquals(0, health.unhealthyCount());
        assertEquals(0, timer.pending(), "no probe of a healthy worker");

        fail(health, 1, 1);
        assertTrue(health.healthy(1), "the count started again from zero");
        fail(health, 1, 1);
        timer.advance(1000);
        assertEquals(List.of("0 left 1", "7000 joined 1", "13500 left 1", "14500 joined 1"), events,
            "the backoff started again from its first interval");
    }

    @Test
    void shouldIgnoreRequestOutcomesWhileUnhealthy() {
        WorkerHealth health = health(1, 1000, 30_000);
        up[0] = false;
        fail(health, 0, 1);
        health.onSuccess(0);

        assertFalse(health.healthy(0), "a late success does not bring the worker back: only a probe does");
        timer.advance(1000);
        assertEquals(List.of("1000 probe 0"), probes);
        assertEquals(1, timer.pending());
    }

    @Test
    void shouldNeverMarkAWorkerUnhealthyWhenOff() {
        WorkerHealth health = new WorkerHealth(WorkerHealthSettings.OFF, List.of("in-process"), this::probe,
            new WorkerHealth.Listener() {
                @Override
                public void onUnhealthy(int worker) {
                    events.add("left " + worker);
                }

                @Override
                public void onRecovered(int worker) {
                    events.add("joined " + worker);
                }
            }, clock, timer);
        fail(health, 0, 1000);

        assertTrue(health.healthy(0));
        assertEquals(List.of(), events);
        assertEquals(0, timer.pending());
        assertEquals(WorkerHealth.Timer.NONE, WorkerHealth.timer(WorkerHealthSettings.OFF, "unused"),
            "no thread is started for it");
    }

    @Test
    void shouldTrackEachWorkerOnItsOwnAndSayWhenNoneIsHealthy() {
        WorkerHealth health = health(2, 1000, 30_000);
        up[0] = false;
        up[1] = false;
        fail(health, 0, 1);
        fail(health, 1, 1);
        health.onSuccess(0);
        fail(health, 1, 1);
        assertEquals(List.of("0 left 1"), events, "worker 0's success does not reset worker 1's count");
        assertFalse(health.noneHealthy());
        assertEquals(-1, new WorkerHealth(WorkerHealthSettings.DEFAULT, List.of(), this::probe, null, clock, timer)
            .nanosUntilNextProbe(), "nothing to probe");

        timer.advance(400);
        fail(health, 0, 2);
        assertTrue(health.noneHealthy());
        assertEquals(Duration.ofMillis(600).toNanos(), health.nanosUntilNextProbe(), "worker 1's probe is first");
    }

    @Test
    void shouldProbeNowOnRequestWithoutDisturbingTheSchedule() {
        WorkerHealth health = health(1, 1000, 30_000);
        up[0] = false;
        fail(health, 0, 1);
        timer.advance(200);

        assertEquals(0, health.probeNow());
        assertEquals(List.of("200 probe 0"), probes);
        assertEquals(Duration.ofMillis(800).toNanos(), health.nanosUntilNextProbe(), "still due at 1000");

        up[0] = true;
        assertEquals(1, health.probeNow());
        assertEquals(List.of("0 left 0", "200 joined 0"), events);
        timer.advance(5000);
        assertEquals(List.of("200 probe 0", "200 probe 0"), probes, "the scheduled probe found nothing to do");
        assertEquals(0, health.probeNow(), "nothing unhealthy to probe");
    }

    @Test
    void shouldCountAProbeThatThrowsAsUnreachable() {
        WorkerHealth health = health(1, 1000, 30_000);
        fail(health, 0, 1);
        probeThrows = new IllegalStateException("boom");
        timer.advance(1000);
        probeThrows = null;
        timer.advance(2000);

        assertEquals(List.of("1000 probe 0", "3000 probe 0"), probes);
        assertEquals(List.of("0 left 0", "3000 joined 0"), events);
    }

    @Test
    void shouldIgnoreEverythingOnceClosed() {
        WorkerHealth health = health(1, 1000, 30_000);
        up[0] = false;
        fail(health, 0, 1);
        health.close();
        health.close();
        up[0] = true;
        fail(health, 1, 3);

        assertTrue(timer.closed);
        assertEquals(0, health.probeNow());
        assertEquals(List.of("0 left 0"), events, "no transition after close");
        assertEquals(List.of(), probes);
    }

    @Test
    void shouldRefuseSettingsThatCannotWork() {
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> new WorkerHealthSettings(-1, Duration.ofSeconds(1), Duration.ofSeconds(30)));
        assertEquals("the engine failure threshold must be >= 0 (0: never mark an engine unhealthy), was -1",
            negative.getMessage());
        IllegalArgumentException inverted = assertThrows(IllegalArgumentException.class,
            () -> new WorkerHealthSettings(3, Duration.ofSeconds(5), Duration.ofMillis(1500)));
        assertEquals("the engine retry backoff must be positive and its first retry at most its maximum, was "
            + "5s..1500ms", inverted.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> new WorkerHealthSettings(3, Duration.ZERO, Duration.ofSeconds(30)));
    }

    @Test
    void shouldNeitherProbeNorCountAWorkerThatLeftTheFrontend() {
        WorkerHealth health = health(1, 100, 1000);
        fail(health, 0, 1);
        assertEquals(1, health.unhealthyCount());

        health.forget(0);
        fail(health, 1, 1);
        assertEquals(1, health.unhealthyCount(), "only worker 1 counts");
        assertTrue(health.noneHealthy(), "the one worker still tracked is unhealthy");
        up[1] = false;
        timer.advance(100);

        assertEquals(List.of("100 probe 1"), probes, "the forgotten worker is not probed");
        assertEquals(List.of("0 left 0", "0 left 1"), events, "nor does it rejoin");
        health.track(2, "http://c:3");
        assertFalse(health.noneHealthy(), "a worker that joins is healthy");
    }
}
