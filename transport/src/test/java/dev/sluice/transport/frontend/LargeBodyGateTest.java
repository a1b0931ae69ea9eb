package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.transport.openai.OpenAiException;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class LargeBodyGateTest {
    private final LargeBodyGate gate = new LargeBodyGate(new LargeBodyBudget(1024, 2, Duration.ZERO), 529);

    @Test
    void shouldLetSmallBodiesPassWithoutATurn() throws Exception {
        LargeBodyGate.Turn atThreshold = gate.enter(OptionalLong.of(1024));
        LargeBodyGate.Turn empty = gate.enter(OptionalLong.of(0));
        assertEquals(2, gate.free());
        atThreshold.close();
        empty.close();
        assertEquals(2, gate.free());
    }

    @Test
    void shouldGiveLargeAndUndeclaredBodiesAtMostTheirTurnsAndRefuseTheNextWithTheOverloadStatus() throws Exception {
        LargeBodyGate.Turn large = gate.enter(OptionalLong.of(1025));
        LargeBodyGate.Turn chunked = gate.enter(OptionalLong.empty());
        assertEquals(0, gate.free());
        OpenAiException refused = assertThrows(OpenAiException.class, () -> gate.enter(OptionalLong.of(1 << 20)));
        assertEquals(529, refused.status());
        assertEquals("too_many_large_bodies", refused.code());
        LargeBodyGate.Turn small = gate.enter(OptionalLong.of(10));
        small.close();
        assertEquals(0, gate.free(), "a small body passes and gives back no turn of the large ones'");
        large.close();
        gate.enter(OptionalLong.of(4096)).close();
        chunked.close();
        assertEquals(2, gate.free());
    }

    @Test
    void shouldTryForATurnWithoutWaitingAndPassSmallBodiesAtOnce() throws Exception {
        LargeBodyGate.Turn small = gate.tryEnter(OptionalLong.of(1024));
        assertEquals(2, gate.free(), "a small body takes no turn");
        LargeBodyGate.Turn first = gate.tryEnter(OptionalLong.of(1025));
        LargeBodyGate.Turn second = gate.tryEnter(OptionalLong.empty());
        assertEquals(0, gate.free());
        assertNull(gate.tryEnter(OptionalLong.of(1 << 20)), "no turn free: the caller waits for one elsewhere");
        assertNotNull(gate.tryEnter(OptionalLong.of(10)), "a small body passes with every turn taken");
        first.close();
        assertEquals(1, gate.free());
        LargeBodyGate.Turn third = gate.tryEnter(OptionalLong.of(4096));
        assertNotNull(third, "a turn given back is taken");
        third.close();
        second.close();
        small.close();
        assertEquals(2, gate.free());
    }

    @Test
    void shouldRefuseABudgetWithoutTurns() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new LargeBodyBudget(1024, 0, Duration.ZERO));
        assertEquals("large bodies handled at once must be at least 1, was 0", e.getMessage());
    }
}
