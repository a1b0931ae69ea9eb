package dev.sluice.transport.cli;

import dev.sluice.transport.engine.mock.MockEngineServer;
import dev.sluice.transport.engine.mock.MockEngineSettings;
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

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        MockEngineSettings settings;
        try {
            settings = new MockEngineSettings(host, port, modelName, defaultMaxTokens, mocker.engine());
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
        out.flush();
        stopped.await();
        return 0;
    }
}
