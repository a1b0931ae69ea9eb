package dev.sluice.core.queue;

import static dev.sluice.core.queue.QueueFixtures.always;
import static dev.sluice.core.queue.QueueFixtures.cls;
import static dev.sluice.core.queue.QueueFixtures.poll;
import static dev.sluice.core.queue.QueueFixtures.profile;
import static dev.sluice.core.queue.QueueFixtures.req;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.TenantFairness;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Virtual token counter fairness between the tenants of one class. */
class TenantFairnessQueueTest {
    private final DispatchGate free = always(true);

    private static PolicyQueues vtc(TenantFairness fairness) {
        return new PolicyQueues(profile(cls("c", QueuePolicy.FCFS, 1_000_000).withTenantFairness(fairness)));
    }

    private static TenantFairness weights(double prompt, double cached, double output, int maxTenants,
                                          Map<String, Double> tenants) {
        return new TenantFairness(TenantFairness.Mode.VTC, prompt, cached, output, maxTenants, tenants);
    }

    private static List<String> drain(PolicyQueues q, DispatchGate gate) {
        List<String> out = new ArrayList<>();
        for (String name = poll(q, gate); name != null; name = poll(q, gate)) {
            out.add(name);
        }
        return out;
    }

    @Test
    void shouldServeTenantsInFcfsOrderWithoutFairness() {
        PolicyQueues q = new PolicyQueues(profile(cls("c", QueuePolicy.FCFS, 1_000_000)));
        for (int i = 0; i < 3; i++) {
            q.enqueue(req("heavy" + i, 0).tenant("heavy").tokens(100, 0).at(i).build(), 1, free);
        }
        q.enqueue(req("light0", 0).tenant("light").tokens(100, 0).at(10).build(), 1, free);
        assertEquals(List.of("heavy0", "heavy1", "heavy2", "light0"), drain(q, free));
    }

    @Test
    void shouldDispatchTheHeadOfTheTenantChargedLeast() {
        PolicyQueues q = vtc(TenantFairness.vtc());
        for (int i = 0; i < 4; i++) {
            q.enqueue(req("heavy" + i, 0).tenant("heavy").tokens(100, 0).at(i).build(), 1, free);
        }
        q.enqueue(req("light0", 0).tenant("light").tokens(100, 0).at(10).build(), 1, free);
        q.enqueue(req("light1", 0).tenant("light").tokens(100, 0).at(11).build(), 1, free);
        // Both start level; after each dispatch the other tenant is charged less.
        assertEquals(List.of("heavy0", "light0", "heavy1", "light1", "heavy2", "heavy3"), drain(q, free));
    }

    @Test
    void shouldChargeCachedTokensAtTheDiscountAndGeneratedTokensAtTheOutputWeight() {
        PolicyQueues q = vtc(weights(1.0, 0.5, 3.0, 16, Map.of()));
        QueueEntry a = req("a", 0).tenant("a").tokens(100, 40).build();
        q.enqueue(a, 1, free);
        q.enqueue(req("b", 0).tenant("b").tokens(10, 0).build(), 1, free);
        assertEquals("a", poll(q, free));
        assertEquals(60 + 20, q.tenantCounter(0, "a"), 1e-9);
        q.serviceEnded(a, 7);
        assertEquals(80 + 21, q.tenantCounter(0, "a"), 1e-9);
        q.serviceEnded(a, 7);
        assertEquals(101, q.tenantCounter(0, "a"), 1e-9, "a second end charges nothing");
    }

    @Test
    void shouldDivideChargesByTheTenantWeight() {
        PolicyQueues q = vtc(weights(1.0, 0.0, 0.0, 16, Map.of("gold", 3.0)));
        for (int i = 0; i < 8; i++) {
            q.enqueue(req("gold" + i, 0).tenant("gold").tokens(90, 0).at(i).build(), 1, free);
            q.enqueue(req("std" + i, 0).tenant("std").tokens(90, 0).at(100 + i).build(), 1, free);
        }
        List<String> first8 = drain(q, free).subList(0, 8);
        assertEquals(6, first8.stream().filter(n -> n.startsWith("gold")).count(), first8.toString());
    }

    @Test
    void shouldLiftAReturningTenantToTheLeastCounterSoIdleTimeEarnsNoCredit() {
        PolicyQueues q = vtc(weights(1.0, 0.0, 0.0, 16, Map.of()));
        for (int i = 0; i < 10; i++) {
            q.enqueue(req("busy" + i, 0).tenant("busy").tokens(100, 0).at(i).build(), 1, free);
        }
        for (int i = 0; i < 5; i++) {
            assertEquals("busy" + i, poll(q, free));
        }
        // "idle" never queued while busy was served 500 tokens; it comes in level with busy, not 500 behind, and
        // wins the tie with nothing in service (busy has five), although busy's head is older.
        q.enqueue(req("idle0", 0).tenant("idle").tokens(100, 0).at(50).build(), 1, free);
        q.enqueue(req("idle1", 0).tenant("idle").tokens(100, 0).at(51).build(), 1, free);
        assertEquals(500, q.tenantCounter(0, "idle"), 1e-9);
        assertEquals(List.of("idle0", "busy5", "idle1", "busy6", "busy7", "busy8", "busy9"), drain(q, free));
    }

    @Test
    void shouldBreakATieBetweenEqualCountersByTheRequestsInServiceThenByTheOlderHead() {
        PolicyQueues q = vtc(weights(1.0, 0.0, 1.0, 16, Map.of()));
        QueueEntry a0 = req("a0", 0).tenant("a").tokens(100, 0).at(0).build();
        q.enqueue(a0, 1, free);
        q.enqueue(req("b0", 0).tenant("b").tokens(100, 0).at(1).build(), 1, free);
        assertEquals("a0", poll(q, free), "level and nothing in service: the older head");
        assertEquals("b0", poll(q, free));
        q.enqueue(req("b1", 0).tenant("b").tokens(100, 0).at(2).build(), 1, free);
        q.enqueue(req("a1", 0).tenant("a").tokens(100, 0).at(3).build(), 1, free);
        // Level at 100, b's head older; a0's end (no output, so no charge) leaves a with none in service.
        q.serviceEnded(a0, 0);
        assertEquals("a1", poll(q, free), "a has none in service, b has b0");
        assertEquals("b1", poll(q, free));
    }

    @Test
    void shouldLiftToTheLastLeastCounterWhenNoTenantIsQueued() {
        PolicyQueues q = vtc(weights(1.0, 0.0, 0.0, 16, Map.of()));
        q.enqueue(req("a0", 0).tenant("a").tokens(100, 0).build(), 1, free);
        assertEquals("a0", poll(q, free));
        q.enqueue(req("a1", 0).tenant("a").tokens(100, 0).build(), 1, free);
        assertEquals("a1", poll(q, free));
        q.enqueue(req("b0", 0).tenant("b").tokens(100, 0).build(), 1, free);
        assertEquals(100, q.tenantCounter(0, "b"), 1e-9, "lifted to a's counter when a last led the queue");
    }

    @Test
    void shouldForgetTheLeastRecentlySeenIdleTenantWhenTheTableIsFull() {
        PolicyQueues q = vtc(weights(1.0, 0.0, 0.0, 2, Map.of()));
        q.enqueue(req("a0", 0).tenant("a").tokens(10, 0).build(), 1, free);
        q.enqueue(req("b0", 0).tenant("b").tokens(10, 0).build(), 1, free);
        QueueEntry a0 = q.pollDispatchable(free, 0, QueueFixtures.IGNORE_EXPIRED);
        QueueEntry b0 = q.pollDispatchable(free, 0, QueueFixtures.IGNORE_EXPIRED);
        q.serviceEnded(b0, 0);
        // a is still in service and holds its slot; b holds nothing, so c takes b's slot.
        q.enqueue(req("c0", 0).tenant("c").tokens(10, 0).build(), 1, free);
        assertEquals(Double.NaN, q.tenantCounter(0, "b"));
        assertEquals(10, q.tenantCounter(0, "a"), 1e-9);
        // Every slot is held now (a in service, c queued): d shares the slot of requests without a tenant.
        q.enqueue(req("d0", 0).tenant("d").tokens(10, 0).build(), 1, free);
        assertEquals(Double.NaN, q.tenantCounter(0, "d"));
        assertEquals(2, q.activeTenants(0) - 1, "a, c and the shared slot are active");
        q.serviceEnded(a0, 0);
        assertEquals(List.of("c0", "d0"), drain(q, free).stream().sorted().toList());
    }

    @Test
    void shouldReleaseATenantWhoseEntriesWereRemovedOrExpired() {
        PolicyQueues q = vtc(weights(1.0, 0.0, 0.0, 1, Map.of()));
        QueueEntry a0 = req("a0", 0).tenant("a").tokens(10, 0).build();
        q.enqueue(a0, 1, free);
        q.enqueue(req("a1", 0).tenant("a").tokens(10, 0).due(5).build(), 1, free);
        assertEquals(1, q.activeTenants(0));
        q.remove(a0);
        assertEquals(0, q.sweepExpired(4, QueueFixtures.IGNORE_EXPIRED));
        assertEquals(1, q.sweepExpired(5, QueueFixtures.IGNORE_EXPIRED));
        assertEquals(0, q.activeTenants(0));
        q.enqueue(req("b0", 0).tenant("b").tokens(10, 0).build(), 1, free);
        assertEquals(0, q.tenantCounter(0, "b"), 1e-9, "b took a's slot");
        assertNull(poll(q, always(false)));
        q.onLoadChanged();
        assertEquals("b0", poll(q, free));
    }

    @Test
    void shouldReportTheSharesOfTheMostServedTenants() {
        PolicyQueues q = vtc(weights(1.0, 0.0, 0.0, 16, Map.of()));
        q.enqueue(req("a", 0).tenant("a").tokens(60, 0).build(), 1, free);
        q.enqueue(req("b", 0).tenant("b").tokens(30, 0).build(), 1, free);
        q.enqueue(req("c", 0).tenant("c").tokens(10, 0).build(), 1, free);
        drain(q, free);
        double[] shares = new double[2];
        q.topTenantShares(0, shares);
        assertArrayEquals(new double[] {0.6, 0.3}, shares, 1e-9);
    }

    @Test
    void shouldKeepStrictPriorityInsideATenant() {
        PolicyQueues q = vtc(TenantFairness.vtc());
        q.enqueue(req("a-low", 0).tenant("a").tokens(10, 0).at(0).build(), 1, free);
        q.enqueue(req("a-high", 0).tenant("a").strict(5).tokens(10, 0).at(1).build(), 1, free);
        q.enqueue(req("b", 0).tenant("b").tokens(10, 0).at(2).build(), 1, free);
        assertEquals(List.of("a-high", "b", "a-low"), drain(q, free));
    }

    @Test
    void shouldKeepEveryTenantsEntriesAcrossAPolicyReloadAndChargeTheEndWhereItWasDispatched() {
        PolicyQueues q = vtc(weights(1.0, 0.0, 1.0, 16, Map.of()));
        q.enqueue(req("h0", 0).tenant("heavy").tokens(10, 0).at(0).build(), 1, free);
        q.enqueue(req("h1", 0).tenant("heavy").tokens(10, 0).at(1).build(), 1, free);
        q.enqueue(req("h2", 0).tenant("heavy").tokens(10, 0).at(2).build(), 1, free);
        q.enqueue(req("l0", 0).tenant("light").tokens(10, 0).at(3).build(), 1, free);
        QueueEntry h0 = q.pollDispatchable(free, 0, QueueFixtures.IGNORE_EXPIRED);
        PolicyQueues next = vtc(weights(1.0, 0.0, 1.0, 16, Map.of()));
        assertEquals(3, q.moveAllTo(next, (entry, was) -> 0).size());
        assertEquals(0, q.size());
        q.serviceEnded(h0, 100);
        assertEquals(110, q.tenantCounter(0, "heavy"), 1e-9, "the old table charged the end of h0");
        assertEquals(0, next.tenantCounter(0, "heavy"), 1e-9, "the new table starts level");
        assertEquals(List.of("h1", "l0", "h2"), drain(next, free));
    }

    @Test
    void shouldChargeARetriedEntrysPromptOnceAcrossItsDispatches() {
        PolicyQueues q = vtc(weights(1.0, 0.0, 2.0, 16, Map.of()));
        QueueEntry a = req("a", 0).tenant("a").tokens(100, 0).build();
        q.enqueue(a, 1, free);
        assertEquals("a", poll(q, free));
        assertEquals(100, q.tenantCounter(0, "a"), 1e-9);
        q.serviceRetried(a);
        q.enqueue(a, 1, free);
        assertEquals("a", poll(q, free));
        assertEquals(100, q.tenantCounter(0, "a"), 1e-9, "the retry's dispatch charges no prompt again");
        q.serviceEnded(a, 5);
        assertEquals(110, q.tenantCounter(0, "a"), 1e-9, "its output is charged as any end's");
    }
}
