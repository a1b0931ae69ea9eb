package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.ErrorClass;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Retry-After from the class's recent drain rate. */
class DrainRateTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldEstimateTheTimeToWorkOffTheBacklog() {
        DrainRate drain = new DrainRate(2);
        for (int i = 0; i < 50; i++) {
            drain.onDispatch(0, i * 200 * MS);
        }
        assertEquals(4_000 * MS, drain.retryAfterNanos(0, 20));
        assertEquals(1_000 * MS, drain.retryAfterNanos(0, 1), "never below one second");
        assertEquals(60_000 * MS, drain.retryAfterNanos(0, 1_000_000), "never above a minute");
        assertEquals(1_000 * MS, drain.retryAfterNanos(1, 20), "a class without history says one second");
    }

    @Test
    void shouldFollowAChangeOfPace() {
        DrainRate drain = new DrainRate(1);
        long t = 0;
        for (int i = 0; i < 100; i++) {
            drain.onDispatch(0, t += 10 * MS);
        }
        for (int i = 0; i < 100; i++) {
            drain.onDispatch(0, t += 500 * MS);
        }
        long estimate = drain.retryAfterNanos(0, 10);
        assertEquals(5_000 * MS, estimate, 100 * MS);
    }

    @Test
    void shouldKeepARetryAfterTheErrorAlreadyHas() {
        AdmissionError own = AdmissionError.of(ErrorClass.RATE_LIMITED).retryAfter(Duration.ofSeconds(7));
        assertSame(own, new DrainRate(1).stamp(own, 0, 5));
        assertEquals(1_000 * MS, new DrainRate(1).stamp(Rejections.DEADLINE, 0, 5).retryAfterNanos());
    }
}
