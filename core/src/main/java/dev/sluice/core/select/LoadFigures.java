package dev.sluice.core.select;

import java.util.Arrays;

/**
 * The booked figures of every live {@link ActiveLoad} of one {@link ActiveSequences}, as arrays indexed by the
 * load's slot (its bit in {@link BookedBlocks}): prefill tokens still waiting for a first token, distinct blocks,
 * requests. The only place a live load's figures are kept: its bookings write them here and its accessors read them
 * here, and a selection reads every rank's from the same few arrays ({@link ActiveSequences#activePrefillTokensAt}
 * and its siblings) instead of visiting one load object per rank. A load that leaves takes its figures with it
 * ({@link ActiveLoad#detach}) and its slot goes to the next load.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class LoadFigures {
    private long[] prefillTokens = new long[16];
    private int[] distinctBlocks = new int[16];
    private int[] requests = new int[16];

    /** Gives {@code slot} to a new load: its figures start at zero. */
    void claim(int slot) {
        if (slot >= requests.length) {
            int capacity = Math.max(slot + 1, requests.length * 2);
            prefillTokens = Arrays.copyOf(prefillTokens, capacity);
            distinctBlocks = Arrays.copyOf(distinctBlocks, capacity);
            requests = Arrays.copyOf(requests, capacity);
        }
        prefillTokens[slot] = 0;
        distinctBlocks[slot] = 0;
        requests[slot] = 0;
    }

    long prefillTokens(int slot) {
        return prefillTokens[slot];
    }

    int distinctBlocks(int slot) {
        return distinctBlocks[slot];
    }

    int requests(int slot) {
        return requests[slot];
    }

    /** One request booked: {@code tokens} of prefill and {@code newBlocks} blocks the load did not hold. */
    void booked(int slot, long tokens, int newBlocks) {
        prefillTokens[slot] += tokens;
        distinctBlocks[slot] += newBlocks;
        requests[slot]++;
    }

    void prefillDone(int slot, long tokens) {
        prefillTokens[slot] -= tokens;
    }

    /** One request freed: {@code releasedBlocks} blocks the load no longer holds. */
    void freed(int slot, int releasedBlocks) {
        distinctBlocks[slot] -= releasedBlocks;
        requests[slot]--;
    }
}
