/**
 * The {@code sluice} command line (picocli): {@code demo}, {@code serve}, {@code config check},
 * {@code mock-engine}, {@code journal show|stats|verify} and {@code replay}, plus the commands other modules add
 * through {@link dev.sluice.transport.cli.SubcommandProvider} ({@code simulate}, from perf). Each command parses
 * and checks its options (usage errors exit with 2), assembles the parts from the packages below it and runs them
 * on the caller's thread. The top of transport: nothing here is used by another package.
 *
 * <pre>
 *   SluiceMain ─┬─ built-in commands ─▶ demo, frontend, engine.*, simulation, core.audit / core.replay
 *               └─ ServiceLoader&lt;SubcommandProvider&gt; ─▶ added commands (sluice simulate)
 * </pre>
 */
package dev.sluice.transport.cli;
