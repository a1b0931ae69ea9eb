package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code journal show}'s filters and the {@code --json} documents of {@code journal show} and {@code stats}. */
class JournalJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    private static Path journal;
    /** {@code journal stats --json} of the demo's journal. */
    private static JsonNode stats;
    private StringWriter out = new StringWriter();
    private StringWriter err = new StringWriter();

    @BeforeAll
    static void recordADemo() throws Exception {
        journal = tmp.resolve("journal");
        DemoJournals.record(journal, "30s");
        JournalJsonTest first = new JournalJsonTest();
        assertEquals(0, first.run("journal", "stats", journal.toString(), "--json"), first.err::toString);
        stats = JSON.readTree(first.out.toString());
        assertTrue(stats.path("total").path("rejected").asLong() > 0, "the demo's burst rejects: " + stats);
    }

    private int run(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    /** The requests {@code journal show --json} prints with these filters. */
    private List<JsonNode> show(String... filters) throws Exception {
        List<String> args = new ArrayList<>(List.of("journal", "show", journal.toString(), "--json"));
        args.addAll(List.of(filters));
        int code = run(args.toArray(String[]::new));
        JsonNode document = JSON.readTree(out.toString());
        List<JsonNode> requests = new ArrayList<>();
        document.path("runs").forEach(r -> r.path("requests").forEach(requests::add));
        assertEquals(requests.size(), document.path("matched").asInt());
        assertEquals(requests.isEmpty() ? 1 : 0, code, err::toString);
        return requests;
    }

    private static JsonNode statsOf(String policyClass) {
        for (JsonNode c : stats.path("classes")) {
            if (c.path("class").asText().equals(policyClass)) {
                return c;
            }
        }
        throw new AssertionError("no class " + policyClass + " in " + stats);
    }

    @Test
    void shouldShowOnlyRequestsWithTheOutcome() throws Exception {
        List<JsonNode> rejected = show("--outcome", "rejected");
        assertEquals(stats.path("total").path("rejected").asLong(), rejected.size());
        rejected.forEach(r -> assertTrue(List.of("rejected", "refused").contains(r.path("outcome").asText()),
            r::toString));
        List<JsonNode> either = show("--outcome", "completed", "--outcome", "aborted");
        assertEquals(stats.path("total").path("completed").asLong() + stats.path("total").path("aborted").asLong(),
            either.size());
    }

    @Test
    void shouldShowOnlyRequestsRejectedForTheReason() throws Exception {
        JsonNode reason = stats.path("rejections").get(0);
        List<JsonNode> requests = show("--reason", reason.path("reason").asText());
        assertEquals(reason.path("count").asLong(), requests.size());
        requests.forEach(r -> assertEquals(reason.path("reason").asText(), r.path("reason").asText()));
        assertEquals(0, show("--reason", "no_such_reason").size());
        assertTrue(err.toString().contains("matches"), err::toString);
    }

    @Test
    void shouldShowOnlyRequestsOfTheClassAsStatsCountsThem() throws Exception {
        List<JsonNode> requests = show("--class", "interactive_short");
        assertEquals(statsOf("interactive_short").path("arrived").asLong(), requests.size());
        requests.forEach(r -> assertEquals("interactive_short", r.path("policy_class").asText()));
        List<JsonNode> rejectedThere = show("--class", "interactive_short", "--outcome", "rejected");
        assertEquals(statsOf("interactive_short").path("rejected").asLong(), rejectedThere.size());
        List<JsonNode> none = show("--class", "none");
        long noClass = stats.path("classes").findValues("class").stream().anyMatch(c -> c.asText().equals(
            "(no class)")) ? statsOf("(no class)").path("arrived").asLong() : 0;
        assertEquals(noClass, none.size());
        none.forEach(r -> assertTrue(r.path("policy_class").isNull(), r::toString));
    }

    @Test
    void shouldShowOnlyRequestsOfTheTimeWindow() throws Exception {
        Instant start = Instant.parse(stats.path("runs").get(0).path("header").path("started_at").asText());
        List<JsonNode> requests = show("--since", "10s", "--until", "12s");
        assertTrue(!requests.isEmpty());
        for (JsonNode r : requests) {
            Instant at = Instant.parse(r.path("arrived_at").asText());
            assertTrue(!at.isBefore(start.plus(Duration.ofSeconds(10))) && at.isBefore(start.plusSeconds(12)),
                r.path("arrived_at") + " outside 10-12 s after " + start);
        }
        assertEquals(2, run("journal", "show", journal.toString(), "--outcome", "lost"));
        assertTrue(err.toString().contains("--outcome 'lost': expected one of completed, rejected"), err::toString);
    }

    @Test
    void shouldPrintOneRequestsEventsWithSnakeCaseKeys() throws Exception {
        List<JsonNode> requests = show("--request", "chat-1");
        assertEquals(1, requests.size());
        JsonNode r = requests.get(0);
        for (String key : List.of("request_id", "lifecycle_id", "arrived_at", "input_tokens", "policy_class",
            "outcome", "reason", "status", "queue_wait_ms", "ttft_ms", "events")) {
            assertTrue(r.has(key), key + " in " + r);
        }
        assertEquals("arrived", r.path("events").get(0).path("type").asText());
        assertEquals(0.0, r.path("events").get(0).path("at_ms").asDouble());
    }

    @Test
    void shouldPrintStatsAsOneStableDocument() throws Exception {
        assertEquals(0, run("journal", "stats", journal.toString(), "--json"));
        assertEquals(stats, JSON.readTree(out.toString()), "the same journal gives the same document");
        long arrived = 0;
        for (JsonNode c : stats.path("classes")) {
            arrived += c.path("arrived").asLong();
            assertTrue(c.has("queue_wait_ms") && c.path("ttft_ms").has("p99") && c.has("admitted"), c::toString);
        }
        assertEquals(stats.path("lifecycles").asLong(), arrived);
        assertEquals(arrived, stats.path("total").path("arrived").asLong());
        assertTrue(stats.path("definitions").get(0).asText().startsWith("class: "), stats::toString);
        JsonNode reason = stats.path("rejections").get(0);
        assertTrue(reason.path("status").isInt() && reason.path("by_class").isObject(), reason::toString);
    }
}
