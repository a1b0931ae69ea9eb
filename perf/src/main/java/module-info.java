/**
 * sluice's perf suite: JMH benchmarks of the scheduler, queues, selection and journal, the open-loop latency harness
 * against a conventional baseline, parked-request scale, the fixed-rate HTTP load, the soak run, and the simulation
 * experiments (scheduling quality, ThunderAgent, prefix cache, the demo on remote engines), which it adds to the
 * {@code sluice} command line as {@code simulate}.
 */
module dev.sluice.perf {
    requires dev.sluice.core;
    requires dev.sluice.transport;
    requires HdrHistogram;
    requires info.picocli;
    requires io.helidon.webclient.api;
    requires io.helidon.webclient.http1;
    requires io.netty.buffer;
    requires io.netty.codec.http;
    requires io.netty.common;
    requires io.netty.transport;
    requires java.desktop;
    requires java.logging;
    requires java.management;
    requires java.net.http;
    requires jmh.core;

    // picocli reads and sets the simulate commands' fields; JMH instantiates the benchmark states.
    opens dev.sluice.perf.simulate to info.picocli;
    opens dev.sluice.perf.admission to jmh.core;
    opens dev.sluice.perf.http to jmh.core;
    opens dev.sluice.perf.journal to jmh.core;
    opens dev.sluice.perf.queue to jmh.core;
    opens dev.sluice.perf.select to jmh.core;

    provides dev.sluice.transport.cli.SubcommandProvider with dev.sluice.perf.simulate.SimulateProvider;
}
