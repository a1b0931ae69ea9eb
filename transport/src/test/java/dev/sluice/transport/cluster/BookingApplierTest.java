package dev.sluice.transport.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Another replica's numbered booking stream applied to a manual router: in order it is taken as it comes; a sender
 * first heard mid-stream, a skipped number or a heartbeat ahead of what arrived drops the sender's bookings and asks
 * it once to resync; its RESET and replay restore them; a lease that runs out drops them.
 */
class BookingApplierTest {
    private static final long LEASE_NS = 1_000_000_000L;
    private static final WorkerAddresses ENGINES = new WorkerAddresses() {
        @Override
        public String address(long workerId) {
            return workerId == 0 ? "http://e0" : null;
        }

        @Override
        public long worker(String address) {
            return address.equals("http://e0") ? 0 : -1;
        }
    };

    private final ModelRouter router = ModelRouter.manual(new RouterContext());
    private final List<String> resyncs = new ArrayList<>();
    private final BookingApplier applier = new BookingApplier("me#1", router, ENGINES, resyncs::add, LEASE_NS);

    @AfterEach
    void close() {
        router.close();
    }

    private int held() {
        while (router.doWork() > 0) {
            Thread.onSpinWait();
        }
        return router.stats().remoteBookings();
    }

    private void receive(BookingWire message, long nowNs) {
        applier.onMessage(message.encode(), nowNs);
    }

    private static BookingWire booked(String replica, long seq, long key, String engine) {
        return BookingWire.booked(replica, seq, 1, key, engine, 0, 100, new long[] {key, key + 1});
    }

    @Test
    void shouldApplyAStreamInOrderAndIgnoreItsOwnMessages() {
        router.workerJoined(WorkerWithDpRank.of(0), 8192, OptionalLong.empty());
        receive(booked("b#1", 1, 10, "http://e0"), 0);
        receive(booked("b#1", 2, 11, "http://e0"), 0);
        receive(booked("me#1", 1, 12, "http://e0"), 0);
        receive(booked("b#1", 3, 13, "http://elsewhere"), 0);
        assertEquals(2, held(), "b's two bookings on e0; its own echo and an unknown engine's are not held");
        assertEquals(1, applier.unknownEngine());
        receive(BookingWire.of(BookingWire.Kind.RELEASED, "b#1", 4, 10), 0);
        assertEquals(1, held());
        assertEquals(List.of(), resyncs, "an unbroken stream needs no resync");
    }

    @Test
    void shouldDropAndResyncASenderWhoseStreamHasAGapAndRestoreItFromTheReset() {
        router.workerJoined(WorkerWithDpRank.of(0), 8192, OptionalLong.empty());
        receive(booked("b#1", 1, 10, "http://e0"), 0);
        receive(booked("b#1", 2, 11, "http://e0"), 0);
        receive(booked("b#1", 5, 14, "http://e0"), 0);
        assertEquals(1, held(), "messages 3 and 4 were lost: b's earlier bookings are dropped, 5 is kept");
        receive(booked("b#1", 7, 16, "http://e0"), 10);
        assertEquals(List.of("b#1"), resyncs, "asked once, not again while the reset is awaited");
        receive(BookingWire.of(BookingWire.Kind.RESET, "b#1", 8, 0), 20);
        receive(booked("b#1", 9, 10, "http://e0").resent(9, 0), 20);
        receive(booked("b#1", 10, 14, "http://e0").resent(10, 0), 20);
        assertEquals(2, held(), "the replay holds what b holds");
        receive(booked("b#1", 12, 17, "http://e0"), 30);
        assertEquals(List.of("b#1", "b#1"), resyncs, "a later gap asks again");
    }

    @Test
    void shouldResyncASenderFirstHeardMidStreamOrAheadInAHeartbeatAndDropItWhenGone() {
        router.workerJoined(WorkerWithDpRank.of(0), 8192, OptionalLong.empty());
        receive(booked("b#1", 40, 10, "http://e0"), 0);
        assertEquals(List.of("b#1"), resyncs, "b published 39 messages before this replica heard it");
        applier.onHeartbeat("c#1", 7, 0);
        assertEquals(List.of("b#1", "c#1"), resyncs, "c announced messages never received");
        applier.onHeartbeat("b#1", 40, 0);
        assertEquals(2, resyncs.size(), "b's heartbeat matches what arrived");
        applier.onHeartbeat("b#1", 41, 2 * LEASE_NS);
        assertEquals(3, resyncs.size(), "the awaited reset did not come within a lease: asked again");
        assertEquals(0, held(), "the resync dropped b's booking until b sends it again");
        receive(booked("b#1", 42, 11, "http://e0"), 2 * LEASE_NS);
        assertEquals(1, held());
        applier.onGone("b#1");
        assertEquals(0, held(), "b's lease ran out");
    }

    @Test
    void shouldRoundTripABookingAndRefuseGarbageByName() {
        BookingWire message = booked("b#1", 3, 9, "http://e0");
        BookingWire back = BookingWire.decode(message.encode());
        assertEquals(message.kind(), back.kind());
        assertEquals("http://e0", back.engine());
        assertEquals(3, back.seq());
        assertArrayEquals(new long[] {9, 10}, back.hashes());
        IllegalArgumentException truncated = assertThrows(IllegalArgumentException.class,
            () -> BookingWire.decode(new byte[] {1, 0, 0}));
        assertTrue(truncated.getMessage().contains("truncated at 3 bytes"), truncated.getMessage());
        IllegalArgumentException version = assertThrows(IllegalArgumentException.class,
            () -> BookingWire.decode(new byte[] {9}));
        assertTrue(version.getMessage().contains("version 9, expected 1"), version.getMessage());
        applier.onMessage(new byte[] {1, 7}, 0);
        assertEquals(1, applier.malformed(), "a bad message is counted and dropped");
    }
}
