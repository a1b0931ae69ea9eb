package dev.sluice.core.select;

import dev.sluice.core.api.SelectionInputs;
import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Arrays;
import java.util.Objects;

/**
 * The reusable {@link SelectionInputs} the router fills for each selection: {@link #reset} with the request, then
 * one {@link #add} per eligible worker in worker order, either with every figure at once (the router) or with the
 * matches only, each optionally followed by {@link #load} and {@link #capacity}; or all the registered ranks in one
 * {@link #addRanks} (the router), less those its {@link RankFilter} finds busy. Arrays grow to the largest candidate
 * count seen and are then reused, so a warm instance allocates nothing; they keep the last candidates' worker records
 * (harmless values) so that a selection over the same workers as the last one stores no references. Plugin tests can
 * use it to feed a selector.
 *
 * <p>Once the built-in {@link DefaultWorkerSelector} has selected over an instance ({@link #costBy}), every full
 * {@link #add} (and {@link #addRanks}) also computes that selector's cost of the candidate and keeps the cheapest and
 * the cost range (not the costs: a draw recosts the few candidates it tries): the figures are at hand then, so the
 * selector needs no second pass over every candidate's arrays. An amended load ({@link #load}) leaves the costs to
 * that selector's own pass.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
public final class SelectionCandidates implements SelectionInputs {
    private long inputTokens;
    private int requestBlocks;
    private WorkerWithDpRank softTarget;
    private WorkerWithDpRank pinnedWorker;
    private int count;
    private WorkerWithDpRank[] workers = new WorkerWithDpRank[16];
    private int[] overlapBlocks = new int[16];
    private int[] newBlocks = new int[16];
    private long[] activePrefillTokens = new long[16];
    private long[] activeDecodeBlocks = new long[16];
    private long[] totalKvBlocks = new long[16];
    private long[] maxNumBatchedTokens = new long[16];
    /** The selector whose cost {@link #add} computes for each candidate, or {@code null} (none asked). */
    private DefaultWorkerSelector costedBy;
    /** Whether {@link #cheapest} and the range hold over {@link #costedBy}'s costs of every candidate. */
    private boolean costed;
    /** Whether {@link #costedBy} samples (temperature above 0): only then is the dearest kept. */
    private boolean sampled;
    private double minCost;
    private double maxCost;
    /** The first candidate of cost {@link #minCost}. */
    private int cheapest;

    /** Starts a new selection: no candidates, the given request. Targets may be {@code null}. */
    public SelectionCandidates reset(long inputTokens, int requestBlocks, WorkerWithDpRank softTarget,
                                     WorkerWithDpRank pinnedWorker) {
        // The workers stay: the next selection mostly offers the same ones in the same places (add skips the store).
        // Nothing else is cleared: every add writes all of its place's figures.
        this.inputTokens = inputTokens;
        this.requestBlocks = requestBlocks;
        this.softTarget = softTarget;
        this.pinnedWorker = pinnedWorker;
        count = 0;
        clearCosts();
        return this;
    }

    /** Adds a candidate with no booked load and unknown capacity; {@link #load} and {@link #capacity} amend it. */
    public SelectionCandidates add(WorkerWithDpRank worker, int overlapBlocks, int newBlocks) {
        return add(worker, overlapBlocks, newBlocks, 0, 0, -1, -1);
    }

    /**
     * Adds a candidate with all its figures: its matches, its router-booked load (as {@link #load}) and its
     * advertised capacity (as {@link #capacity}, {@code -1} = unpublished).
     */
    public SelectionCandidates add(WorkerWithDpRank worker, int overlapBlocks, int newBlocks, long activePrefillTokens,
                                   long activeDecodeBlocks, long totalKvBlocks, long maxNumBatchedTokens) {
        Objects.requireNonNull(worker, "worker");
        if (count == workers.length) {
            grow(count * 2);
        }
        if (workers[count] != worker) {
            // Only a changed candidate is stored: a reference store into an old array costs a GC write barrier.
            workers[count] = worker;
        }
        this.overlapBlocks[count] = overlapBlocks;
        this.newBlocks[count] = newBlocks;
        this.activePrefillTokens[count] = activePrefillTokens;
        this.activeDecodeBlocks[count] = activeDecodeBlocks;
        this.totalKvBlocks[count] = totalKvBlocks;
        this.maxNumBatchedTokens[count] = maxNumBatchedTokens;
        count++;
        if (costedBy != null) {
            costFrom(count - 1);
        }
        return this;
    }

    /** A rank's own figures as {@link #addRanks} reads them: the router's record of a registered rank. */
    public interface Rank {
        /** The rank, never {@code null}. */
        WorkerWithDpRank id();

        /** KV blocks in use on the rank beyond the router's own bookings, by its engine's last report. */
        long outsideBlocks();

        /** The advertised KV capacity in blocks, {@code -1} = unpublished. */
        long totalKvBlocks();

        long maxNumBatchedTokens();
    }

    /** Leaves ranks out of {@link #addRanks}: the router's test of a rank too busy for the request's class. */
    public interface RankFilter {
        /** True when {@code rank}, with {@code activePrefillTokens} booked on it by the router, is no candidate. */
        boolean excludes(Rank rank, long activePrefillTokens);
    }

    /**
     * Adds every one of {@code ranks} in order, each as a full {@link #add} would: its overlap from {@code scores} by
     * its KV slot {@code kvSlots[i]} ({@link KvIndex#slot}; {@code kvSlots} {@code null}: the request has no blocks),
     * its new blocks and booked load from {@code active} by its load slot {@code loadSlots[i]}
     * ({@link ActiveLoad#slot}; {@link ActiveSequences#matchBooked} last ran over this request's
     * {@link #requestBlocks}), its outside blocks counted in its decode blocks, and its capacity. One pass with the
     * arrays, the place and the cost range in locals, where one {@link #add} per rank reloads each array and the count
     * and checks each array against the count.
     */
    public SelectionCandidates addRanks(Rank[] ranks, int[] kvSlots, int[] loadSlots, OverlapScores scores,
                                        ActiveSequences active) {
        return addRanks(ranks, kvSlots, loadSlots, scores, active, null, null);
    }

    /**
     * As {@link #addRanks(Rank[], int[], int[], OverlapScores, ActiveSequences)}, leaving out each rank that
     * {@code skip} excludes (tested on the booked prefill the pass reads anyway; {@code null}: none left out). When
     * {@code rankOf} is not {@code null}, {@code rankOf[c]} is set to the index in {@code ranks} of each candidate
     * {@code c} this pass adds; it must hold as many places as the candidates will.
     */
    public SelectionCandidates addRanks(Rank[] ranks, int[] kvSlots, int[] loadSlots, OverlapScores scores,
                                        ActiveSequences active, RankFilter skip, int[] rankOf) {
        int place = count;
        int end = place + ranks.length;
        if (end > workers.length) {
            grow(Math.max(end, workers.length * 2));
        }
        WorkerWithDpRank[] ids = workers;
        int[] overlaps = overlapBlocks;
        int[] news = newBlocks;
        long[] prefills = activePrefillTokens;
        long[] decodes = activeDecodeBlocks;
        long[] capacities = totalKvBlocks;
        long[] batches = maxNumBatchedTokens;
        int blocks = requestBlocks;
        // Costed as filled, the figures still in registers: no second pass reads them back. The cheapest and the range
        // follow costFrom's rule.
        DefaultWorkerSelector selector = costedBy;
        boolean keepMax = sampled;
        long tokens = inputTokens;
        double min = minCost;
        double max = maxCost;
        int first = cheapest;
        for (int i = 0; i < ranks.length; i++) {
            Rank rank = ranks[i];
            int loadSlot = loadSlots[i];
            long prefill = active.activePrefillTokensAt(loadSlot);
            if (skip != null && skip.excludes(rank, prefill)) {
                continue;
            }
            if (rankOf != null) {
                rankOf[place] = i;
            }
            WorkerWithDpRank id = rank.id();
            if (ids[place] != id) {
                ids[place] = id;
            }
            int overlap = kvSlots == null ? 0 : scores.blocksAt(kvSlots[i]);
            int unbooked = active.newBlocksOfMatchedAt(loadSlot, blocks);
            long decode = active.activeBlocksAt(loadSlot) + rank.outsideBlocks();
            overlaps[place] = overlap;
            news[place] = unbooked;
            prefills[place] = prefill;
            decodes[place] = decode;
            capacities[place] = rank.totalKvBlocks();
            batches[place] = rank.maxNumBatchedTokens();
            if (selector != null) {
                double cost = selector.cost(tokens, overlap, prefill, decode, unbooked);
                if (cost < min) {
                    min = cost;
                    first = place;
                }
                if (keepMax && cost > max) {
                    max = cost;
                }
            }
            place++;
        }
        count = place;
        minCost = min;
        maxCost = max;
        cheapest = first;
        return this;
    }

    /** Sets the router-booked load of the last added candidate. */
    public SelectionCandidates load(long activePrefillTokens, long activeDecodeBlocks) {
        this.activePrefillTokens[count - 1] = activePrefillTokens;
        this.activeDecodeBlocks[count - 1] = activeDecodeBlocks;
        // The cheapest and the range already saw the cost before the amendment: the selector recosts every candidate.
        costed = false;
        return this;
    }

    /** Sets the advertised capacity of the last added candidate ({@code -1} = unpublished). */
    public SelectionCandidates capacity(long totalKvBlocks, long maxNumBatchedTokens) {
        this.totalKvBlocks[count - 1] = totalKvBlocks;
        this.maxNumBatchedTokens[count - 1] = maxNumBatchedTokens;
        return this;
    }

    /**
     * Costs every candidate with {@code selector}'s cost now, and every later full {@link #add} as it comes, until
     * another selector asks.
     */
    void costBy(DefaultWorkerSelector selector) {
        costedBy = selector;
        sampled = selector.samples();
        clearCosts();
        costFrom(0);
    }

    /** Whether every candidate's cost by {@code selector} is known ({@link #costBy}). */
    boolean costedBy(DefaultWorkerSelector selector) {
        return costed && costedBy == selector;
    }

    /** The lowest cost of a candidate, once costed; infinite without candidates. */
    double minCost() {
        return minCost;
    }

    /** The highest cost of a candidate, once costed. */
    double maxCost() {
        return maxCost;
    }

    /** The first candidate (in worker order) of the lowest cost, once costed. */
    int cheapest() {
        return cheapest;
    }

    private void clearCosts() {
        costed = costedBy != null;
        minCost = Double.POSITIVE_INFINITY;
        maxCost = Double.NEGATIVE_INFINITY;
        cheapest = 0;
    }

    /** Takes the costs by {@link #costedBy} of candidates {@code [from .. count)} into the cheapest and the range. */
    private void costFrom(int from) {
        DefaultWorkerSelector selector = costedBy;
        boolean keepMax = sampled;
        long tokens = inputTokens;
        int[] overlaps = overlapBlocks;
        int[] news = newBlocks;
        long[] prefills = activePrefillTokens;
        long[] decodes = activeDecodeBlocks;
        double min = minCost;
        double max = maxCost;
        int first = cheapest;
        for (int i = from; i < count; i++) {
            double cost = selector.cost(tokens, overlaps[i], prefills[i], decodes[i], news[i]);
            // Strictly cheaper only: of equal costs the first candidate stays the cheapest. Comparisons, not
            // Math.min/max: costs are never NaN nor -0.0, and a predictable branch does not chain one candidate's
            // latency onto the next.
            if (cost < min) {
                min = cost;
                first = i;
            }
            if (keepMax && cost > max) {
                max = cost;
            }
        }
        minCost = min;
        maxCost = max;
        cheapest = first;
    }

    /** The overlap of candidate {@code i} at {@code [i]}, {@code 0 <= i < candidateCount()}; not to be written. */
    int[] overlapBlocksArray() {
        return overlapBlocks;
    }

    /** The new blocks of candidate {@code i} at {@code [i]}, {@code 0 <= i < candidateCount()}; not to be written. */
    int[] newBlocksArray() {
        return newBlocks;
    }

    /** The prefill tokens of candidate {@code i} at {@code [i]}, {@code 0 <= i < candidateCount()}; read only. */
    long[] activePrefillTokensArray() {
        return activePrefillTokens;
    }

    /** The decode blocks of candidate {@code i} at {@code [i]}, {@code 0 <= i < candidateCount()}; read only. */
    long[] activeDecodeBlocksArray() {
        return activeDecodeBlocks;
    }

    private void grow(int capacity) {
        workers = Arrays.copyOf(workers, capacity);
        overlapBlocks = Arrays.copyOf(overlapBlocks, capacity);
        newBlocks = Arrays.copyOf(newBlocks, capacity);
        activePrefillTokens = Arrays.copyOf(activePrefillTokens, capacity);
        activeDecodeBlocks = Arrays.copyOf(activeDecodeBlocks, capacity);
        totalKvBlocks = Arrays.copyOf(totalKvBlocks, capacity);
        maxNumBatchedTokens = Arrays.copyOf(maxNumBatchedTokens, capacity);
    }

    @Override
    public long inputTokens() {
        return inputTokens;
    }

    @Override
    public int requestBlocks() {
        return requestBlocks;
    }

    @Override
    public WorkerWithDpRank softTarget() {
        return softTarget;
    }

    @Override
    public WorkerWithDpRank pinnedWorker() {
        return pinnedWorker;
    }

    @Override
    public int candidateCount() {
        return count;
    }

    @Override
    public WorkerWithDpRank worker(int candidate) {
        return workers[Objects.checkIndex(candidate, count)];
    }

    @Override
    public int overlapBlocks(int candidate) {
        return overlapBlocks[Objects.checkIndex(candidate, count)];
    }

    @Override
    public long activePrefillTokens(int candidate) {
        return activePrefillTokens[Objects.checkIndex(candidate, count)];
    }

    @Override
    public long activeDecodeBlocks(int candidate) {
        return activeDecodeBlocks[Objects.checkIndex(candidate, count)];
    }

    @Override
    public int newBlocks(int candidate) {
        return newBlocks[Objects.checkIndex(candidate, count)];
    }

    @Override
    public long totalKvBlocks(int candidate) {
        return totalKvBlocks[Objects.checkIndex(candidate, count)];
    }

    @Override
    public long maxNumBatchedTokens(int candidate) {
        return maxNumBatchedTokens[Objects.checkIndex(candidate, count)];
    }
}
