/**
 * Replaying a journal to verify it: {@link dev.sluice.core.replay.ReplayVerifier} re-feeds a run's recorded inputs
 * through a fresh manual router on a virtual clock (an Agrona {@code CachedNanoClock} set to each record's time),
 * answers every classification from the recording ({@link dev.sluice.core.replay.ReplayClassifier}) and compares
 * the router's decisions with the recorded ones ({@link dev.sluice.core.replay.DecisionComparison}).
 * {@link dev.sluice.core.replay.Arrivals} rebuilds recorded requests, for this replay and for a what-if replay on a
 * simulated fleet. Single-threaded: the replay steps the router on the calling thread.
 *
 * <pre>
 *   journal ─▶ JournalRun ─inputs at recorded times─▶ manual ModelRouter (recorded config, ReplayClassifier)
 *                                                       └─▶ JournalCapture ─▶ DecisionComparison
 * </pre>
 */
package dev.sluice.core.replay;
