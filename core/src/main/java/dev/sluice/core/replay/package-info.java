/**
 * Replaying a journal to verify it: {@link dev.sluice.core.replay.ReplayVerifier} re-feeds a run's recorded inputs
 * through a fresh manual router on a virtual clock (an Agrona {@code CachedNanoClock} set to each record's time),
 * answers every classification from the recording ({@link dev.sluice.core.replay.ReplayClassifier}) and compares
 * the router's decisions with the recorded ones ({@link dev.sluice.core.replay.DecisionComparison}). A graceful
 * drain is replayed where its first effect is recorded; arrivals a cut run ends before deciding are listed, not
 * compared.
 * {@link dev.sluice.core.replay.Arrivals} rebuilds recorded requests. A what-if
 * ({@link dev.sluice.core.replay.RetimedReplay}) re-feeds the recorded inputs under another configuration with its
 * real classifier, each dispatch answered with the recorded service times of that request
 * ({@link dev.sluice.core.replay.ServiceTimes}); under the recorded configuration it reproduces the recording, which
 * it checks. Single-threaded: a replay steps the router on the calling thread.
 *
 * <pre>
 *   journal ─▶ JournalRun ─inputs at recorded times─▶ manual ModelRouter (recorded config, ReplayClassifier)
 *                                                       └─▶ JournalCapture ─▶ DecisionComparison
 *   journal ─▶ JournalRun ─inputs, re-timed answers─▶ manual ModelRouter (other config, its classifier)
 *                                                       └─▶ JournalCapture ─▶ RetimedReplay.Result
 * </pre>
 */
package dev.sluice.core.replay;
