/**
 * sluice's transport: HTTP in (the OpenAI-compatible frontend on Helidon SE, the wire format, tokenization:
 * the word tokenizer, or a model's Hugging Face tokenizer and chat template), engines
 * out (the engine interface, remote engines, the simulated fleet and the mock engine), metrics, the router and fleet
 * on a virtual clock, the demo, and the {@code sluice} command line, which other modules extend with subcommands
 * found through {@link java.util.ServiceLoader}. Uses only what core exports.
 */
module dev.sluice.transport {
    requires transitive dev.sluice.core;
    requires transitive HdrHistogram;
    requires transitive info.picocli;
    requires io.helidon.common;
    requires transitive io.helidon.http;
    requires transitive io.helidon.webserver;
    requires transitive io.netty.buffer;
    requires transitive io.netty.codec;
    requires transitive io.netty.codec.http;
    requires transitive io.netty.common;
    // TLS to https engines (SslHandler), on the event loops.
    requires io.netty.handler;
    // An engine's host name looked up off the event loops (OffLoopLookups).
    requires io.netty.resolver;
    requires transitive io.netty.transport;
    requires java.desktop;
    requires java.logging;
    requires jdk.management;
    // sun.misc.Signal: SIGHUP reloads serve's router policy (Java has no public signal API).
    requires jdk.unsupported;
    requires java.net.http;
    requires ai.djl.api;
    requires ai.djl.tokenizers;
    requires jinjava;
    requires msgpack.core;
    requires transitive io.nats.jnats;
    requires org.zeromq.jeromq;
    requires org.slf4j;
    requires zero.allocation.hashing;

    exports dev.sluice.transport.budget;
    exports dev.sluice.transport.cli;
    exports dev.sluice.transport.cluster;
    exports dev.sluice.transport.demo;
    exports dev.sluice.transport.engine;
    exports dev.sluice.transport.engine.http;
    exports dev.sluice.transport.engine.kv;
    exports dev.sluice.transport.engine.mock;
    exports dev.sluice.transport.engine.sim;
    exports dev.sluice.transport.engine.telemetry;
    exports dev.sluice.transport.frontend;
    exports dev.sluice.transport.io;
    exports dev.sluice.transport.metrics;
    exports dev.sluice.transport.openai;
    exports dev.sluice.transport.plot;
    exports dev.sluice.transport.simulation;
    exports dev.sluice.transport.tokenize;
    exports dev.sluice.transport.tokenize.hf;

    // picocli reads and sets the commands' annotated fields.
    opens dev.sluice.transport.cli to info.picocli;

    uses dev.sluice.core.spi.RouterPluginCatalog;
    uses dev.sluice.transport.cli.SubcommandProvider;
}
