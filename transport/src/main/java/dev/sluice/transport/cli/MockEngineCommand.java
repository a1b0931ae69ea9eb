package dev.sluice.transport.cli;

import dev.sluice.transport.engine.mock.MockEngineServer;
import dev.sluice.transport.engine.kv.ZmqKvEventPublisher;
import dev.sluice.transport.engine.mock.MockEngineSettings;
import dev.sluice.transport.engine.mock.MockKvEvents;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code sluice mock-engine}: one simulated worker behind an OpenAI-compatible HTTP server, until SIGTERM. */
@Command(name = "mock-engine", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Serves one simulated inference worker (Dynamo's mocker model: KV cache with prefix caching, "
        + "chunked prefill, preemption, polynomial timing) over OpenAI-compatible HTTP: POST /v1/chat/completions, "
        + "POST /v1/completions (JSON or stream: true; the prompt as text or token ids), GET /v1/models, "
        + "GET /health, GET /metrics (the worker's load under vLLM's metric names).",
        "Prints 'mock-engine listening on http://HOST:PORT' when ready; stops on SIGTERM or Ctrl-C."})
final class MockEngineCommand implements Callable<Integer> {
    @Option(names = "--port", required = true, paramLabel = "PORT", description = "Port to listen on (0: any).")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "HOST",
        description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--model-name", defaultValue = "sluice-sim", paramLabel = "NAME",
        description = "The model name served; requests for another get 404 (default: ${DEFAULT-VALUE}, the name "
            + "serve serves and asks its engines for by default).")
    String modelName;

    @Option(names = "--default-max-tokens", defaultValue = "16", paramLabel = "N",
        description = "Tokens generated when a request has neither max_completion_tokens nor max_tokens; 0 makes "
            + "one of them required (default: ${DEFAULT-VALUE}, OpenAI's completions default).")
    int defaultMaxTokens;

    @CommandLine.Mixin
    MockerOptions mocker = new MockerOptions();

    @Option(names = "--kv-events", paramLabel = "ENDPOINT",
        description = {"Publish the worker's KV-cache events over ZMQ as vLLM does (its --kv-events-config "
            + "endpoint), e.g. tcp://*:5557 (port 0: any free port). Frames [topic, sequence, msgpack batch]; "
            + "BlockStored with the blocks' token_ids and the engine's own block hashes, BlockRemoved. Needs prefix "
            + "caching (on by default)."})
    String kvEvents;

    @Option(names = "--kv-events-replay", paramLabel = "ENDPOINT",
        description = "Also answer replay requests for missed batches on this ZMQ ROUTER endpoint (vLLM's "
            + "replay_endpoint), e.g. tcp://*:5558.")
    String kvEventsReplay;

    @Option(names = "--kv-events-buffer", defaultValue = "10000", paramLabel = "BATCHES",
        description = "Batches the replay socket keeps (vLLM's buffer_steps; default: ${DEFAULT-VALUE}).")
    int kvEventsBuffer;

    @Option(names = "--kv-events-topic", defaultValue = "", paramLabel = "TOPIC",
        description = "The topic frame of every KV-event message (default: empty, as vLLM's).")
    String kvEventsTopic;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        MockEngineSettings settings;
        try {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("--port must be 0..65535 (0: any free port), was " + port);
            }
            if (defaultMaxTokens < 0) {
                throw new IllegalArgumentException("--default-max-tokens must be >= 0, was " + defaultMaxTokens);
            }
            if (kvEvents == null && kvEventsReplay != null) {
                throw new IllegalArgumentException("--kv-events-replay needs --kv-events");
            }
            settings = new MockEngineSettings(host, port, modelName, defaultMaxTokens, mocker.engine(),
                kvEvents == null ? null : new MockKvEvents(kvEvents, kvEventsReplay, kvEventsTopic, kvEventsBuffer));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        MockEngineServer server;
        try {
            server = MockEngineServer.start(settings);
        } catch (RuntimeException e) {
            spec.commandLine().getErr().println("sluice: mock-engine cannot listen on " + host + ":" + port + ": "
                + e.getMessage());
            return 1;
        }
        Thread hook = new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "sluice-mock-engine-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        PrintWriter out = spec.commandLine().getOut();
        out.println("mock-engine listening on http://" + host + ":" + server.port());
        ZmqKvEventPublisher published = server.kvEvents();
        if (published != null) {
            out.println("mock-engine publishing KV events on port " + published.port() + (published.replayPort() < 0
                ? "" : ", replay on port " + published.replayPort()));
        }
        out.flush();
        stopped.await();
        return 0;
    }
}
