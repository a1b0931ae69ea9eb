package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineListener;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.EngineRequest;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.EngineStream;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Worker ids given out once, retired engines kept until idle, and what serves an engine closed with it. */
class EngineSetTest {
    private final List<String> closed = new ArrayList<>();

    /** An engine whose running requests the test sets. */
    private final class CountedEngine implements Engine {
        final String address;
        int running;

        CountedEngine(String address) {
            this.address = address;
        }

        @Override
        public EngineStream submit(EngineRequest request, EngineListener listener) {
            throw new UnsupportedOperationException("not run here");
        }

        @Override
        public EngineRuntimeConfig runtimeConfig() {
            return new EngineRuntimeConfig(100, 16, 1024, 8, 1);
        }

        @Override
        public EngineLoad load(int dpRank) {
            return new EngineLoad(dpRank, 0, 0, 100, running, 0, 0.0, 0);
        }

        @Override
        public String address() {
            return address;
        }

        @Override
        public void close() {
            closed.add(address);
        }
    }

    @Test
    void shouldNeverGiveAWorkerIdTwice() {
        EngineSet set = new EngineSet(() -> closed.add("set"));
        CountedEngine a = new CountedEngine("a");
        assertEquals(0, set.add(a, List.of()));
        assertEquals(1, set.add(new CountedEngine("b"), List.of()));

        set.retire(0);

        assertEquals(2, set.nextId(), "the id of a retired engine is not given again");
        assertEquals(2, set.add(new CountedEngine("a"), List.of()), "even to an engine at the same address");
        assertEquals(List.of(1, 2), set.active());
        assertEquals(OptionalInt.of(2), set.find("a"));
        assertSame(a, set.engine(0), "a retired engine is still found by its id");
    }

    @Test
    void shouldStopARetiredEngineOnceItsLastRequestHasEndedAndWhatServesItAtOnce() {
        EngineSet set = new EngineSet(() -> closed.add("set"));
        CountedEngine busy = new CountedEngine("busy");
        busy.running = 1;
        set.add(busy, List.of(() -> closed.add("busy's subscriber")));

        set.retire(0);
        assertEquals(List.of("busy's subscriber"), closed);
        assertEquals(0, set.closeIdle());
        assertFalse(set.retiredAllStopped());

        busy.running = 0;
        assertEquals(1, set.closeIdle());
        assertEquals(0, set.closeIdle(), "stopped once");
        assertTrue(set.retiredAllStopped());
        set.close();
        assertEquals(List.of("busy's subscriber", "busy", "set"), closed);
    }

    @Test
    void shouldCloseWhatServesTheEnginesBeforeTheEngines() {
        EngineSet set = new EngineSet(() -> closed.add("set"));
        set.add(new CountedEngine("a"), List.of(() -> closed.add("a's scraper")));
        set.add(new CountedEngine("b"), List.of(() -> closed.add("b's scraper")));

        set.close();
        set.close();

        assertEquals(List.of("a's scraper", "b's scraper", "b", "a", "set"), closed);
        assertThrows(IllegalStateException.class, () -> set.add(new CountedEngine("c"), List.of()));
    }

    @Test
    void shouldLeaveTheEnginesOfAFleetToTheFleet() {
        EngineSet set = EngineSet.of(List.of(new CountedEngine("a")), () -> closed.add("fleet"));

        set.close();

        assertEquals(List.of("fleet"), closed);
    }
}
