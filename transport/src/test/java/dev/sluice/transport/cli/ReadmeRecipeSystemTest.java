package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.testing.SluiceProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's recipe for trying {@code --engine-url} on one machine, run as the README writes it: its
 * {@code mock-engine} and {@code serve} command lines and its request, read from the README itself, through
 * {@code SluiceMain} in separate processes. Only what a shared test machine needs changes: the engine listens on
 * {@code --port 0} instead of 9001 and {@code serve} is pointed at the port it printed (a port chosen free here and
 * bound later by the other process could be taken in between), and {@code serve} gets
 * {@code --http-port 0 --no-journal} (a free port instead of 8000, no journal folder in the working directory).
 */
class ReadmeRecipeSystemTest {
    private static final Path README = Path.of("..", "README.md");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern MOCK_READY = Pattern.compile("mock-engine listening on (http://\\S+)");
    private static final Pattern SERVE_READY = Pattern.compile("sluice serving \\S+ on (http://\\S+)");

    @Test
    void shouldAnswerTheReadmeRequestThroughTheMockEngine() throws Exception {
        List<String> recipe = recipe();
        String curl = String.join(" ", recipe.subList(indexOf(recipe, "curl "), recipe.size()));

        try (SluiceProcess mock = SluiceProcess.start(MOCK_READY, command(recipe, "scripts/sluice mock-engine", "0"));
             SluiceProcess serve = SluiceProcess.start(SERVE_READY, serveArgs(recipe, mock.ready()))) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> response = client.send(request(curl, serve.ready()),
                HttpResponse.BodyHandlers.ofString());

            assertEquals(200, response.statusCode(), response.body() + "\nserve:\n" + serve.output() + "\nmock:\n"
                + mock.output());
            JsonNode message = JSON.readTree(response.body()).get("choices").get(0).get("message");
            assertFalse(message.get("content").asText().isBlank(), response::body);
            JsonNode health = JSON.readTree(client.send(HttpRequest.newBuilder(URI.create(serve.ready()
                + "/health")).build(), HttpResponse.BodyHandlers.ofString()).body());
            assertEquals("healthy", health.get("status").asText(), health::toString);
            assertEquals(0, health.get("unhealthy_workers").asInt());
            assertEquals(0, health.get("misconfigured_workers").asInt());
        }
    }

    /** The lines of the code block under the README's "Trying --engine-url on one machine", continuations joined. */
    private static List<String> recipe() throws Exception {
        String readme = Files.readString(README);
        int heading = readme.indexOf("### Trying `--engine-url` on one machine");
        assertTrue(heading >= 0, "the README has the recipe");
        int start = readme.indexOf("```\n", heading) + 4;
        int end = readme.indexOf("```", start);
        List<String> lines = new ArrayList<>();
        for (String line : readme.substring(start, end).replace("\\\n", " ").split("\n")) {
            lines.add(line.strip());
        }
        return lines;
    }

    /** The recipe's {@code serve} line pointed at the engine listening on {@code engineUrl}, on a free port. */
    private static List<String> serveArgs(List<String> recipe, String engineUrl) {
        String port = String.valueOf(URI.create(engineUrl).getPort());
        List<String> args = command(recipe, "scripts/sluice serve", port);
        args.addAll(List.of("--http-port", "0", "--no-journal"));
        return args;
    }

    /** The arguments after {@code scripts/sluice} of the recipe line starting with {@code prefix}, port replaced. */
    private static List<String> command(List<String> recipe, String prefix, String port) {
        String line = recipe.get(indexOf(recipe, prefix)).replaceAll("\\s*&$", "").replace("9001", port);
        List<String> args = new ArrayList<>(Arrays.asList(line.split("\\s+")));
        return new ArrayList<>(args.subList(1, args.size()));
    }

    private static int indexOf(List<String> recipe, String prefix) {
        for (int i = 0; i < recipe.size(); i++) {
            if (recipe.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("the README's recipe has no line starting with '" + prefix + "': " + recipe);
    }

    /** The recipe's curl request (its path, header and {@code -d} body), sent to serve at {@code base}. */
    private static HttpRequest request(String curl, String base) {
        Matcher url = Pattern.compile("http://127\\.0\\.0\\.1:8000(/\\S+)").matcher(curl);
        Matcher body = Pattern.compile("-d '([^']*)'").matcher(curl);
        assertTrue(url.find() && body.find() && curl.contains("-H 'content-type: application/json'"), curl);
        return HttpRequest.newBuilder(URI.create(base + url.group(1))).header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.group(1))).build();
    }
}
