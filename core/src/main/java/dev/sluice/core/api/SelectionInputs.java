package dev.sluice.core.api;


/**
 * What a worker selector sees of one request and its eligible workers: a read-only view the router fills
 * before each selection and reuses for the next one. Candidates are indexed {@code 0 .. candidateCount() - 1} in
 * worker order (worker id, then rank); every candidate already passed the router's eligibility filters (hard pin,
 * allow-list, DP-rank bounds, busy gating).
 *
 * <p>Valid only during the {@code select} call that received it; do not keep a reference. Read on
 * the scheduler thread only.
 */
public interface SelectionInputs {
    /** The request's input (prompt) tokens on the router's token basis. */
    long inputTokens();

    /** The request's complete KV blocks ({@code inputTokens / blockSize}). */
    int requestBlocks();

    /** The classifier's soft worker target, or {@code null}; honour it when it is a candidate. */
    WorkerWithDpRank softTarget();

    /** The worker the request is hard-pinned to, or {@code null}. When set it is the only candidate, if any. */
    WorkerWithDpRank pinnedWorker();

    /** The eligible workers; 0 when none is eligible. */
    int candidateCount();

    /** The candidate's worker and DP rank. */
    WorkerWithDpRank worker(int candidate);

    /** Blocks of this request's prefix already cached on the candidate (from KV events). */
    int overlapBlocks(int candidate);

    /** Prefill tokens the router has booked on the candidate and not yet seen a first token for. */
    long activePrefillTokens(int candidate);

    /** Distinct KV blocks of the requests the router has booked on the candidate (shared prefixes count once). */
    long activeDecodeBlocks(int candidate);

    /** Blocks of this request the candidate does not already hold among its booked requests. */
    int newBlocks(int candidate);

    /** The candidate's advertised KV capacity in blocks, or {@code -1} when unpublished. */
    long totalKvBlocks(int candidate);

    /** The candidate's {@code max_num_batched_tokens}, or {@code -1} when unpublished. */
    long maxNumBatchedTokens(int candidate);

    /** The index of {@code worker} among the candidates, or {@code -1}; a linear scan. */
    default int indexOf(WorkerWithDpRank worker) {
        if (worker == null) {
            return -1;
        }
        int count = candidateCount();
        for (int i = 0; i < count; i++) {
            if (worker.equals(worker(i))) {
                return i;
            }
        }
        return -1;
    }
}
