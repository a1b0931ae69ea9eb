package dev.sluice.core.host;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.kv.KvEvent;
import java.util.OptionalLong;

/**
 * Sees every input the scheduler takes and every decision it makes, in order, with the scheduler's clock: the
 * seam for the journal and for metrics. Called on the scheduler thread; keep each call short and allocation-free,
 * and never block. A thrown exception is counted and logged, never propagated.
 */
public interface SchedulerObserver {
    /** A request got a lifecycle. */
    default void onArrived(long nowNs, RequestView request) {
    }

    /** An arrival was refused before it got a lifecycle (duplicate live id, live-request limit). */
    default void onRefused(long nowNs, long lifecycleId, AdmissionRequest request, AdmissionError error) {
    }

    /** The classifier (or a continuation, or a wake-up, or a park deadline) decided. */
    default void onClassified(long nowNs, RequestView request, Classification.Kind decision) {
    }

    /** The request entered its policy class (overrides and queue snapshot are readable on the view). */
    default void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
    }

    /** The request was rejected before dispatch (by the classifier or the router, deadlines included). */
    default void onRejected(long nowNs, RequestView request, AdmissionError error) {
    }

    /** The request was booked on a worker and handed to its submitter. */
    default void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
    }

    /** The first response item arrived. */
    default void onResponding(long nowNs, RequestView request) {
    }

    /** Terminal success, with the engine-reported context tokens, or -1 when none was reported. */
    default void onCompleted(long nowNs, RequestView request, long contextTokens) {
    }

    /** Terminal failure after admission started (cancelled, failed in dispatch or streaming). */
    default void onAborted(long nowNs, RequestView request, Throwable cause) {
    }

    /** The dispatch attempt will be retried with the cached classification. */
    default void onRetried(long nowNs, RequestView request) {
    }

    default void onWorkerJoined(long nowNs, WorkerWithDpRank worker, long maxNumBatchedTokens,
                                OptionalLong totalKvBlocks) {
    }

    default void onWorkerLeft(long nowNs, WorkerWithDpRank worker) {
    }

    /** An engine's KV-cache event reached the router (an input: it decides cache buckets and placement). */
    default void onKvEvent(long nowNs, KvEvent event) {
    }

    /** An engine's report of its own load reached the router (an input: it decides busy gating and placement). */
    default void onWorkerLoad(long nowNs, WorkerLoad load) {
    }

    /**
     * Once a second (router clock) for each class with tenant fairness: how many tenants have a request queued or in
     * service, and the shares of the class's tracked service held by its most served tenants, largest first (no
     * tenant names: bounded for metrics). {@code topShares} is reused; copy what you keep. Not a decision and not
     * journaled.
     */
    default void onTenantShares(long nowNs, int classIndex, int activeTenants, double[] topShares) {
    }

    /**
     * A reloaded router policy took effect, between two duty cycles; {@link #onRequeued} follows for each queued
     * request it moved. Later records' class indices are the new profile's.
     */
    default void onPolicyReloaded(long nowNs, PolicyChange change) {
    }

    /**
     * A policy reload moved a queued request from {@code from} (a class of the previous profile) to {@code to} (its
     * class in the new one, which its view's class index now names); it stays queued, with its place in arrival
     * order. Not an input: a replay that applies the reload makes the same moves.
     */
    default void onRequeued(long nowNs, RequestView request, PolicyClassSpec from, PolicyClassSpec to) {
    }

    /**
     * Asked on the scheduler thread before each arrival gets a lifecycle: a non-null error refuses the arrival
     * (reported through {@link #onRefused}). This lets an observer that must see every admission, a fail-closed
     * journal, stop admission when it can no longer record. The default never refuses; must not allocate.
     */
    default AdmissionError arrivalVeto() {
        return null;
    }

    /** Observes nothing. */
    SchedulerObserver NONE = new SchedulerObserver() { };
}
