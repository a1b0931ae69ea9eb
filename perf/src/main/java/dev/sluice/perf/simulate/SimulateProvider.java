package dev.sluice.perf.simulate;

import dev.sluice.transport.cli.SubcommandProvider;

/** Adds {@code sluice simulate} to the command line; listed in {@code META-INF/services}. */
public final class SimulateProvider implements SubcommandProvider {
    @Override
    public Object command() {
        return new SimulateCommand();
    }
}
