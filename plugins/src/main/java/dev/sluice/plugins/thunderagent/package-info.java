/**
 * ThunderAgent, the built-in {@code thunderagent} classifier: program-aware admission for agent sessions.
 *
 * <pre>
 *  classify ─▶ register (limits, duplicate id) ─▶ first of an idle session? ─▶ ProgramScheduler.tryAdmit
 *                                                     │ released: admit with a soft worker target
 *                                                     └ otherwise: park (no thread) until a wake-up
 *  onEvent:   Sent ─▶ program follows the actual worker
 *             Completed ─▶ program acts (between turns), paused if marked ─▶ admit the session's next turn
 *             Aborted ─▶ roll the turn back ─▶ admit the session's next turn
 *  every scheduler_interval_seconds (ClassifierTimers, scheduler thread) ─▶ Reconciler:
 *             expire retained ─▶ forget dead ranks ─▶ admit waiting turns ─▶ ResumePlanner.greedy
 *             ─▶ ResumePlanner.forced ─▶ PausePlanner.pauseUntilSafe ─▶ compact arrivals
 * </pre>
 *
 * Everything is owned by the router's scheduler thread; the only cross-thread object is the host's wake-up.
 */
package dev.sluice.plugins.thunderagent;
