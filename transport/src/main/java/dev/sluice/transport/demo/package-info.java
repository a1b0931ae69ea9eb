/**
 * {@code sluice demo}: the main job, and what else runs on the demo's simulated engines.
 * <ul>
 *   <li>Over HTTP ({@link dev.sluice.transport.demo.HttpDemo}): the frontend on a free loopback port with a
 *   simulated fleet under KV pressure, a mixed open-loop workload sent through real HTTP by the JDK client (one
 *   virtual thread per request), a progress line, a summary per policy class with an accounting check, and a
 *   self-contained HTML report with charts ({@code transport.plot}).</li>
 *   <li>In-process ({@link dev.sluice.transport.demo.InProcessDemo}): the same kind of traffic, the same engines and
 *   the real router on the fleet simulator's virtual clock, without HTTP.</li>
 *   <li>What-if ({@link dev.sluice.transport.demo.WhatIfReplay}): a journal's figures per class (as
 *   {@code journal stats} defines them) next to those of core's retimed replay under another
 *   configuration, with the model check and its limits; {@link dev.sluice.transport.demo.ReplayJson} writes
 *   {@code replay --json}.</li>
 *   <li>For other programs ({@link dev.sluice.transport.demo.DemoTraffic},
 *   {@link dev.sluice.transport.demo.DemoSetup}): the HTTP demo's workload, router and frontend settings, to run it
 *   on other engines (perf's remote-engines experiment).</li>
 * </ul>
 *
 * <pre>
 *   HttpWorkload ─▶ List&lt;Call&gt; (wall-time offsets) ─▶ LoadDriver (virtual thread per call)
 *       ─▶ HTTP ─▶ Frontend
 *       client outcomes ─▶ ClientTally          router decisions ─▶ ClassTally (scheduler observer)
 *   ProgressMonitor samples both every 250 ms ─▶ progress line, Timeline
 *   DemoResult (join by x-request-id) ─▶ SummaryPrinter (stdout), HtmlReport (file)
 *
 *   DemoWorkload ─▶ List&lt;Arrival&gt; ─▶ ClusterSimulation (virtual clock)
 *       router decisions ─▶ ClassTally (+ journal) ─▶ DemoReport ─▶ stdout
 *   JournalRun ─▶ RetimedReplay (recorded config: check; other config: what-if) ─▶ JournalStats ─▶ WhatIfReplay
 * </pre>
 */
package dev.sluice.transport.demo;
