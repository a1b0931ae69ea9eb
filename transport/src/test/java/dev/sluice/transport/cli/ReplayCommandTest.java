package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.replay.Difference;
import dev.sluice.transport.demo.ReplayJson;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sluice replay} on a demo's journal as a user runs it: a what-if under the recorded policy reproduces the
 * recording and changes no figure, and {@code --json} prints the same as one JSON object.
 */
class ReplayCommandTest {
    @TempDir
    static Path tmp;

    private static Path journal;
    private static Path samePolicy;
    private StringWriter out = new StringWriter();
    private StringWriter err = new StringWriter();

    @BeforeAll
    static void recordADemo() throws Exception {
        journal = tmp.resolve("journal");
        DemoJournals.record(journal, "10s");
        try (InputStream in = ReplayCommandTest.class.getResourceAsStream(
            "/dev/sluice/transport/demo/demo-policy.yaml")) {
            samePolicy = Files.write(tmp.resolve("same.yaml"), in.readAllBytes());
        }
    }

    private int run(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void shouldReproduceTheRecordingInAWhatIfUnderTheRecordedPolicy() {
        assertEquals(0, run("replay", journal.toString(), "--router-policy-config", samePolicy.toString()),
            out + "" + err);
        String text = out.toString();
        assertTrue(text.contains("model check: the recorded policy on the recorded service times reproduces all"),
            text);
        assertTrue(text.contains("parked") && text.contains("model limits:")
            && text.contains("figures as journal stats defines them"), text);
        // Only the heading names both policies with an arrow; no figure changed.
        assertEquals(1, text.split(" → ", -1).length - 1, text);
    }

    @Test
    void shouldPrintTheWhatIfAsOneJsonObject() throws Exception {
        assertEquals(0, run("replay", journal.toString(), "--router-policy-config", samePolicy.toString(),
            "--json"), out + "" + err);
        JsonNode doc = new ObjectMapper().readTree(out.toString());
        assertEquals("what_if", doc.get("mode").asText());
        assertEquals(0, doc.get("exit_code").asInt());
        JsonNode run = doc.get("runs").get(0);
        assertTrue(run.get("model_check").get("reproduced").asBoolean(), run::toPrettyString);
        assertEquals(0, run.get("model_check").get("differences").size());
        assertEquals(samePolicy.toString(), run.get("what_if_policy").asText());
        assertTrue(run.get("classes").size() >= 4, run::toPrettyString);
        run.get("classes").properties().forEach(e -> assertEquals(e.getValue().get("recorded"),
            e.getValue().get("what_if"), e.getKey()));
        assertTrue(run.get("classes").get("agent_short").get("recorded").get("parked").asLong() > 0,
            run::toPrettyString);
        for (JsonNode reason : run.get("rejections")) {
            assertEquals(reason.get("recorded"), reason.get("what_if"), reason::toString);
        }
        assertTrue(run.get("notes").size() > 0, run::toPrettyString);
    }

    @Test
    void shouldPrintTheVerificationAsOneJsonObject() throws Exception {
        assertEquals(0, run("replay", journal.toString(), "--verify", "--json"), out + "" + err);
        JsonNode doc = new ObjectMapper().readTree(out.toString());
        List<String> keys = new java.util.ArrayList<>();
        doc.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("journal", "mode", "runs", "exit_code"), keys);
        assertEquals("verify", doc.get("mode").asText());
        JsonNode run = doc.get("runs").get(0);
        assertEquals(1, run.get("run").asInt());
        assertEquals("demo", run.get("model").asText());
        assertTrue(run.get("reproduced").asBoolean());
        assertTrue(run.get("decisions").asLong() > 100, run::toPrettyString);
        assertEquals(0, run.get("differences").size());
    }

    @Test
    void shouldWriteADifferenceWithItsFields() {
        Difference d = new Difference("request a1 (lifecycle 3)", 3, "a1", 4, "Rejected", 3_000_000_000L,
            List.of(new Difference.Field("error.retryAfterNanos", "4000000000", "2000000000")), "Rejected[...]",
            "Rejected[...]");
        JsonNode node = ReplayJson.difference(d);
        assertEquals("a1", node.get("request_id").asText());
        assertEquals(3, node.get("lifecycle_id").asLong());
        assertEquals(4, node.get("record").asInt());
        assertEquals("Rejected", node.get("record_type").asText());
        assertEquals(3_000_000_000L, node.get("since_start_ns").asLong());
        assertEquals(Map.of("name", "error.retryAfterNanos", "recorded", "4000000000", "replayed", "2000000000"),
            new ObjectMapper().convertValue(node.get("fields").get(0), Map.class));
        assertEquals(d.toString(), node.get("text").asText());
    }
}
