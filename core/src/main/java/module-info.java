/**
 * sluice's admission core: one single-writer scheduler per served model deciding, for every request, whether and
 * when it enters the router's policy queues, where it goes, and how its lifecycle ends; the journal of every input
 * and decision, and its readers and replay.
 *
 * <p>Exported to everyone: the values plugins receive and return ({@code api}), what plugins implement and register
 * ({@code spi}), and what a host (an HTTP frontend, a test, an embedding server) uses: the router and its settings
 * ({@code router}), what it exchanges with a router ({@code host}), the router-policy YAML ({@code config}), the
 * KV-cache vocabulary ({@code kv}), and the journal with its readers and replay. The scheduler, the policy queues and
 * worker placement are internal; the queues and placement are opened to sluice's own benchmarks (and placement's
 * candidate table to the built-in plugins' tests of their selectors).
 */
module dev.sluice.core {
    requires transitive com.fasterxml.jackson.databind;
    requires transitive org.agrona;
    requires com.fasterxml.jackson.dataformat.yaml;
    requires com.lmax.disruptor;
    // The journal's statistics (audit) keep their percentiles in HdrHistogram, and hand them out (RequestFigures).
    requires transitive HdrHistogram;
    requires chronicle.bytes;
    requires chronicle.core;
    requires chronicle.queue;
    requires chronicle.wire;
    requires org.slf4j;
    requires org.yaml.snakeyaml;
    requires zero.allocation.hashing;

    exports dev.sluice.core.api;
    exports dev.sluice.core.spi;
    exports dev.sluice.core.router;
    exports dev.sluice.core.host;
    exports dev.sluice.core.config;
    exports dev.sluice.core.kv;
    exports dev.sluice.core.journal;
    exports dev.sluice.core.audit;
    exports dev.sluice.core.replay;
    exports dev.sluice.core.queue to dev.sluice.perf;
    exports dev.sluice.core.select to dev.sluice.perf, dev.sluice.plugins;

    // Jackson binds the built-in selector's YAML parameters into a record of that package.
    opens dev.sluice.core.select to com.fasterxml.jackson.databind;

    uses dev.sluice.core.spi.RouterPluginCatalog;
}
