/**
 * Charts, drawn without a plotting library: the demo's HTML report and perf's latency plot use them alike. A
 * {@link dev.sluice.transport.plot.Chart} lays out a title, two axes (linear, log or percentile), lines, bars and a
 * legend in pixels, and draws them onto a {@link dev.sluice.transport.plot.PlotCanvas}: SVG text or a PNG image.
 * Cold path; one chart is drawn on one thread.
 *
 * <pre>
 *   Series (data) ─┐
 *   Axis x, Axis y ┴▶ Chart ─draw─▶ PlotCanvas ─┬▶ SvgPlot.render ─▶ SVG (report page, latency.svg)
 *                      (Scale per axis)        └▶ PngPlot.write  ─▶ PNG (latency.png)
 * </pre>
 */
package dev.sluice.transport.plot;
