/**
 * {@code sluice simulate prefix-cache | agents | quality | fairness | preemption | reload | remote-engines}: the
 * experiments as a command of transport's command line, which finds {@link dev.sluice.perf.simulate.SimulateProvider}
 * through {@code ServiceLoader} when perf is on the classpath ({@code scripts/sluice}, and perf's
 * {@code benchmarks.jar} for {@code scripts/perf --quality}).
 */
package dev.sluice.perf.simulate;
