/**
 * {@code sluice demo}: the frontend on a free loopback port with a simulated fleet under KV pressure, a mixed
 * open-loop workload sent through real HTTP by the JDK client (one virtual thread per request), a progress line,
 * a summary per policy class with an accounting check, and a self-contained HTML report.
 *
 * <pre>
 *   HttpWorkload ─▶ List&lt;Call&gt; (wall-time offsets) ─▶ LoadDriver (virtual thread per call)
 *       ─▶ HTTP ─▶ Frontend
 *       client outcomes ─▶ ClientTally          router decisions ─▶ ClassTally (scheduler observer)
 *   ProgressMonitor samples both every 250 ms ─▶ progress line, Timeline
 *   DemoResult (join by x-request-id) ─▶ SummaryPrinter (stdout), HtmlReport (file)
 * </pre>
 */
package dev.sluice.transport.demo;
