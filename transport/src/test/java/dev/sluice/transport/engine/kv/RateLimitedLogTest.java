package dev.sluice.transport.engine.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

class RateLimitedLogTest {
    @Test
    void shouldWriteOneLinePerIntervalAndCountTheOnesHeldBack() {
        List<String> lines = new ArrayList<>();
        CachedNanoClock clock = new CachedNanoClock();
        RateLimitedLog log = new RateLimitedLog(lines::add, clock, 1_000);

        log.log("first");
        clock.advance(999);
        log.log("second");
        log.log("third");
        clock.advance(1);
        log.log("fourth");
        clock.advance(1_000);
        log.log("fifth");

        assertEquals(List.of("first", "fourth (and 2 more since the last line)", "fifth"), lines);
    }
}
