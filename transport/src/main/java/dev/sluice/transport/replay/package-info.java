/**
 * Replaying a journal: {@link dev.sluice.transport.replay.ReplayVerifier} re-feeds a run's recorded inputs through
 * a fresh router on a virtual clock and proves its decisions are the recorded ones;
 * {@link dev.sluice.transport.replay.WhatIfReplay} runs the recorded arrivals under another configuration on the
 * simulated fleet. Single-threaded; the router is a manual one stepped by the replay.
 *
 * <pre>
 *   journal ─▶ JournalRun ─inputs at recorded times─▶ manual ModelRouter (recorded config, ReplayClassifier)
 *                                                       └─▶ JournalCapture ─▶ DecisionComparison
 * </pre>
 */
package dev.sluice.transport.replay;
