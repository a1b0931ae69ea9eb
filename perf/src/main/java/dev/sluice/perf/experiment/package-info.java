/**
 * The simulation experiments, on transport's fleet simulator
 * ({@link dev.sluice.transport.simulation.ClusterSimulation}, the real router before simulated engines on a virtual
 * clock): {@link dev.sluice.perf.experiment.PrefixCacheExperiment} (chats on shared system prompts under each
 * router mode: prefix-cache hit rates), {@link dev.sluice.perf.experiment.AgentExperiment} (agent sessions under
 * pass-through and ThunderAgent, open loop), {@link dev.sluice.perf.experiment.ClosedLoopAgentExperiment} (N
 * {@link dev.sluice.perf.experiment.CodingAgentWorkload} programs at once in closed loop, a sweep over N) and
 * {@link dev.sluice.perf.experiment.SchedulingQualityExperiment} (DRR shares, deadline misses and goodput under a
 * load ramp, read from the router's decisions by
 * {@link dev.sluice.perf.experiment.QualityObserver}), {@link dev.sluice.perf.experiment.FairnessExperiment} (tenant
 * fairness inside a class), {@link dev.sluice.perf.experiment.PreemptionExperiment} (preempting sheddable work) and
 * {@link dev.sluice.perf.experiment.ReloadExperiment} (policy reloads under load; both read by
 * {@link dev.sluice.perf.experiment.FlowObserver} into a {@link dev.sluice.perf.experiment.FlowReport}), with the
 * workloads they generate and the tables they print.
 * {@link dev.sluice.perf.experiment.RemoteEnginesExperiment} is the exception: the HTTP demo's workload in real time
 * through a real frontend, on the embedded fleet and then on mock engines behind {@code --engine-url} with KV events
 * ({@code RemoteFleet}), comparing the engines' prefix-cache hit rates.
 *
 * <pre>
 *   ChatWorkload | AgentWorkload | StepWorkload ─▶ List&lt;SessionPlan&gt; ─▶ ClusterSimulation ─▶ ClusterReport
 *                                                        (QualityObserver) ─▶ QualityReport ─▶ QualityTables
 *                                                                           ClusterReport ─▶ ReportTable
 *   CodingAgentWorkload (program i) ─▶ ClusterSimulation.runClosedLoop ─▶ ClosedLoopReport (per policy, N)
 * </pre>
 *
 * Each simulation is a function of its seed and runs on the calling thread; the remote-engines run depends on timing
 * too, so its figures vary a little from run to run.
 */
package dev.sluice.perf.experiment;
