package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.testing.SluiceProcess;
import dev.sluice.transport.testing.TestTokenizers;
import dev.sluice.transport.tokenize.ChatPrompt;
import dev.sluice.transport.tokenize.hf.TokenizerRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code serve --tokenizer DIR}: a model directory that cannot be used stops it; a real one counts real tokens. */
class ServeTokenizerTest {
    private static final Pattern READY = Pattern.compile("sluice serving \\S+ on (http://\\S+)");

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void shouldExitWith2NamingWhatIsWrongWithTheDirectory(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("Qwen3-8B");
        assertEquals(2, run("serve", "--no-journal", "--tokenizer", missing.toString()));
        assertTrue(err.toString().contains("sluice: --tokenizer " + missing + ": " + missing + " is not a directory; "
            + "give a Hugging Face model directory holding tokenizer.json and tokenizer_config.json"), err::toString);

        Files.writeString(dir.resolve("tokenizer.json"), "{}");
        assertEquals(2, run("serve", "--no-journal", "--tokenizer", dir.toString()));
        assertTrue(err.toString().contains(" has no tokenizer_config.json"), err::toString);
    }

    @Test
    void shouldServeTheEmbeddedFleetWithTheModelsTokens() throws Exception {
        Path qwen3 = TestTokenizers.qwen3();
        try (SluiceProcess serve = SluiceProcess.start(READY, List.of("serve", "--http-port", "0", "--no-journal",
            "--sim-workers", "1", "--speedup-ratio", "50", "--model-name", "qwen3", "--tokenizer",
            qwen3.toString()))) {
            assertTrue(serve.output().contains("1 simulated worker, tokenizer " + qwen3.toRealPath()),
                serve::output);
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                serve.ready() + "/v1/chat/completions")).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"qwen3\",\"max_tokens\":2,\"messages\":["
                    + "{\"role\":\"user\",\"content\":\"Wie hoch ist das Wasser am Wehr? 🌊\"}]}")).build(),
                HttpResponse.BodyHandlers.ofString());

            assertEquals(200, response.statusCode(), response.body());
            JsonNode usage = new ObjectMapper().readTree(response.body()).get("usage");
            int expected;
            try (TokenizerRegistry registry = new TokenizerRegistry()) {
                expected = registry.load(qwen3).chat(new ChatPrompt(List.of(Map.of("role", "user", "content",
                    "Wie hoch ist das Wasser am Wehr? 🌊")), null, true, Map.of(), null)).tokens().length;
            }
            assertEquals(expected, usage.get("prompt_tokens").asInt(), response::body);
        }
    }
}
