package dev.sluice.core.scheduler;

import java.util.concurrent.TimeUnit;
import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Classification deadlines on a timer wheel (about 1 ms ticks): a parked request's park deadline or classification
 * timeout, a deferred one's classification timeout; a request holds at most one timer. (Queue deadlines live in the
 * policy queues.) Expiry is re-checked against the exact deadline, so a tick never makes a deadline early. Owned by
 * the scheduler thread; not thread-safe.
 */
final class Timers {
    private static final long TICK_NS = 1L << 20;
    private static final int TICKS_PER_WHEEL = 1024;

    /** Receives a request whose deadline passed. */
    interface Expiry {
        void onDeadline(LiveRequest request, long nowNs);
    }

    private final DeadlineTimerWheel wheel;
    private final Long2ObjectHashMap<LiveRequest> owners = new Long2ObjectHashMap<>();
    private final DeadlineTimerWheel.TimerHandler handler = this::onTimer;
    private Expiry expiry;
    private long pollNow;

    Timers(long startNs) {
        this.wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, startNs, TICK_NS, TICKS_PER_WHEEL);
    }

    /** Arms the request's timer for {@code deadlineNs}, replacing any it had. */
    void schedule(LiveRequest request, long deadlineNs) {
        cancel(request);
        long id = wheel.scheduleTimer(deadlineNs);
        request.timerId = id;
        owners.put(id, request);
    }

    /** Disarms the request's timer, if any. */
    void cancel(LiveRequest request) {
        if (request.timerId >= 0) {
            wheel.cancelTimer(request.timerId);
            owners.remove(request.timerId);
            request.timerId = -1;
        }
    }

    /**
     * Fires due timers; returns how many expired. A wheel poll examines the current tick and then advances at most
     * one tick, so this polls until the wheel stops advancing: the tick holding {@code nowNs} has then been
     * examined, and a clock that jumps (a replay, a manual test clock) still fires on time.
     */
    int poll(long nowNs, Expiry onExpiry) {
        pollNow = nowNs;
        expiry = onExpiry;
        int expired = 0;
        long tickEnd;
        do {
            tickEnd = wheel.currentTickTime();
            if (owners.isEmpty()) {
                // Nothing armed: jump the wheel's clock so later timers are not scheduled in the past.
                if (tickEnd <= nowNs) {
                    wheel.currentTickTime(nowNs);
                }
                return expired;
            }
            expired += wheel.poll(nowNs, handler, Integer.MAX_VALUE);
        } while (wheel.currentTickTime() != tickEnd);
        return expired;
    }

    int armed() {
        return owners.size();
    }

    private boolean onTimer(TimeUnit unit, long now, long timerId) {
        LiveRequest request = owners.remove(timerId);
        if (request == null) {
            return true;
        }
        request.timerId = -1;
        expiry.onDeadline(request, pollNow);
        return true;
    }
}
