/**
 * The host API: start a router for one served model ({@link dev.sluice.core.router.ModelRouter}, configured by a
 * {@link dev.sluice.core.router.RouterContext} that is concluded once), submit requests and report their lifecycle,
 * read its counters ({@link dev.sluice.core.router.RouterStatistics}), and resolve the policy file's plugin sections
 * against the linked plugins ({@link dev.sluice.core.router.RouterPlugins}).
 *
 * <pre>
 *   RouterContext ─conclude()─▶ SchedulerParts (ingress ring, clock, counters, worker table, classifier, inbox)
 *   ModelRouter.start ─▶ SchedulerAgent on an AgentRunner thread (or ModelRouter.manual: stepped by doWork)
 *   submit / responding / completed / aborted / workerJoined / kvEvent ─▶ IngressProxy ─▶ ring ─▶ scheduler
 *   stats() ◀── RouterCounters (acquire reads of the scheduler's release writes)
 * </pre>
 */
package dev.sluice.core.router;
