package dev.sluice.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The shared bucket's arithmetic: grants within one minute of the limit, exact denials, refunds never overfill. */
class BudgetLedgerTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long NOW = 1_700_000_000L * SECOND;

    @Test
    void shouldGrantAsMuchAsTheBucketHoldsBetweenTheMinimumAndTheMaximum() {
        BudgetLedger.Step first = BudgetLedger.claim(Long.MIN_VALUE, NOW, 60, 1, 50);
        assertEquals(new BudgetGrant(50, 0), first.grant(), "a new bucket is full");
        BudgetLedger.Step second = BudgetLedger.claim(first.fullAt(), NOW, 60, 1, 50);
        assertEquals(new BudgetGrant(10, 0), second.grant(), "only 10 of the 60 are left");
        BudgetLedger.Step denied = BudgetLedger.claim(second.fullAt(), NOW, 60, 2, 50);
        assertTrue(denied.grant().denied());
        assertEquals(2 * SECOND, denied.grant().retryAfterNanos(), "two requests refill in two seconds");
        assertEquals(second.fullAt(), denied.fullAt(), "a denial leaves the state alone");
        assertEquals(new BudgetGrant(2, 0), BudgetLedger.claim(second.fullAt(), NOW + 2 * SECOND, 60, 2, 2).grant());
    }

    @Test
    void shouldCapClaimsAtTheLimitAndRefundWithoutOverfilling() {
        BudgetLedger.Step all = BudgetLedger.claim(Long.MIN_VALUE, NOW, 100, 500, 500);
        assertEquals(100, all.grant().units(), "an oversized claim takes the whole bucket");
        long refunded = BudgetLedger.refund(all.fullAt(), NOW, 100, 40);
        assertEquals(40, BudgetLedger.claim(refunded, NOW, 100, 0, 100).grant().units());
        assertEquals(NOW, BudgetLedger.refund(all.fullAt(), NOW, 100, 1000), "never fuller than full");
    }

    @Test
    void shouldKeepTheStateAsDecimalNanosecondsAndRefuseAnythingElse() {
        assertEquals(NOW, BudgetLedger.decode(BudgetLedger.encode(NOW)));
        assertEquals(Long.MIN_VALUE, BudgetLedger.decode(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> BudgetLedger.decode("x".getBytes()));
        assertThrows(IllegalArgumentException.class, () -> BudgetLedger.claim(0, NOW, 0, 1, 1));
    }
}
