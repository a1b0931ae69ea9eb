/**
 * The fleet simulator: a manual {@link dev.sluice.core.router.ModelRouter} in front of a
 * {@link dev.sluice.transport.engine.sim.SimulatedFleet}, both stepped by one
 * {@link dev.sluice.transport.engine.sim.VirtualClockDriver}, playing a workload and measuring the run. Minutes
 * of traffic run in seconds, and a run is a function of its seed. A workload is closed-loop
 * {@link dev.sluice.transport.simulation.SessionPlan sessions} (each turn waits for the previous answer), open-loop
 * {@link dev.sluice.transport.simulation.Arrival arrivals} (each request at its fixed instant), or both.
 * {@code sluice demo --in-process}, the what-if replay and perf's experiments run on it.
 *
 * <pre>
 *  session start / next turn, arrival (driver actions)
 *                 │ submit(prompt hashes, ingress = now)
 *                 ▼
 *           ModelRouter ── classify, park, queue ── onDispatched(worker) ─▶ SimulatedWorker.submit
 *                 ▲                                                              │ passes on the virtual clock
 *                 │ kvEvent (stored / removed blocks)  ◀────────────────────────┤
 *                 │ responding (first token), completed(prompt + completion)  ◀─┤
 *                 │ aborted (client gave up or left)                             │
 *                 └──── a session's next turn after the think / tool gap: prompt + answer + new text
 * </pre>
 *
 * A {@link dev.sluice.core.host.SchedulerObserver} in the {@link dev.sluice.transport.simulation.ClusterContext}
 * sees the router's every input and decision (a journal, a per-class tally). A
 * {@link dev.sluice.transport.simulation.RouterAction} does something to the router at an instant (a policy reload).
 * A turn the router preempts is cancelled on its engine, and an arrival's client sends it again after the
 * Retry-After. Everything runs on the thread that
 * calls {@link dev.sluice.transport.simulation.ClusterSimulation#run}.
 */
package dev.sluice.transport.simulation;
