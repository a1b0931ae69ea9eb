/**
 * A cluster on a virtual clock: a manual {@link dev.sluice.core.router.ModelRouter} in front of a
 * {@link dev.sluice.transport.engine.sim.SimulatedFleet}, both stepped by one
 * {@link dev.sluice.transport.engine.sim.VirtualClockDriver}, with a workload of sessions and per-run metrics. Minutes of
 * traffic run in seconds, and a run is a function of its seed.
 *
 * <pre>
 *  workload ─▶ session start / next turn (driver action)
 *                 │ submit(prompt hashes, ingress = now)
 *                 ▼
 *           ModelRouter ── classify, park, queue ── onDispatched(worker) ─▶ SimulatedWorker.submit
 *                 ▲                                                              │ passes on the virtual clock
 *                 │ kvEvent (stored / removed blocks)  ◀────────────────────────┤
 *                 │ responding (first token), completed(prompt + completion)  ◀─┤
 *                 │ aborted (client gave up)                                     │
 *                 └──── next turn after the think / tool gap: prompt + answer + new text
 * </pre>
 *
 * Experiments on it: {@link dev.sluice.perf.experiment.PrefixCacheExperiment} (issue 4),
 * {@link dev.sluice.perf.experiment.AgentExperiment} (issue 6) and
 * {@link dev.sluice.perf.experiment.SchedulingQualityExperiment} (issue 8: DRR shares, deadline misses, goodput under
 * a ramp; it reads the router's decisions through a {@link dev.sluice.core.host.SchedulerObserver}).
 *
 * Everything runs on the thread that calls {@link dev.sluice.transport.simulation.ClusterSimulation#run}.
 */
package dev.sluice.transport.simulation;
