package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code sluice journal} and {@code sluice replay} as a user runs them on a demo's journal. */
class JournalCommandTest {
    @TempDir
    static Path tmp;

    private static Path journal;
    private static String demoOutput;
    private StringWriter out = new StringWriter();
    private StringWriter err = new StringWriter();

    @BeforeAll
    static void recordADemo() {
        journal = tmp.resolve("journal");
        String text = DemoJournals.record(journal, "10s");
        demoOutput = text;
        assertTrue(text.contains("journal      " + journal) && text.contains("replay " + journal + " --verify"),
            text);
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
    void shouldVerifyTheDemoJournal() {
        assertEquals(0, run("journal", "verify", journal.toString()), out + "" + err);
        assertTrue(out.toString().contains("all invariants hold"), out::toString);
        assertTrue(out.toString().contains("exactly one terminal event"), out::toString);
    }

    @Test
    void shouldShowOneRequestsTimeline() {
        assertEquals(0, run("journal", "show", journal.toString(), "--request", "chat-1"), err::toString);
        String text = out.toString();
        assertTrue(text.contains("request chat-1 (lifecycle"), text);
        assertTrue(text.contains("arrived at the scheduler") && text.contains("outcome: "), text);
        assertEquals(1, run("journal", "show", journal.toString(), "--request", "no-such-request"));
        assertTrue(err.toString().contains("matches"), err::toString);
    }

    @Test
    void shouldShowARequestWindow() {
        assertEquals(0, run("journal", "show", journal.toString(), "--since", "2s", "--until", "3s"), err::toString);
        assertTrue(out.toString().contains("request "), out::toString);
        assertEquals(2, run("journal", "show", journal.toString(), "--since", "soon"));
        assertTrue(err.toString().contains("neither an instant"), err::toString);
    }

    @Test
    void shouldPrintTheFiguresTheInProcessDemoPrinted() throws Exception {
        FiguresAgreement.assertAgree(FiguresAgreement.inProcessRows(demoOutput), journal, demoOutput);
    }

    @Test
    void shouldPrintStatsPerClass() {
        assertEquals(0, run("journal", "stats", journal.toString()), err::toString);
        assertTrue(out.toString().contains("interactive_short") && out.toString().contains("ttft p99"),
            out::toString);
        assertTrue(out.toString().contains("rejection reasons"), out::toString);
    }

    @Test
    void shouldExplainAWrongDirectory() {
        Path missing = tmp.resolve("missing");
        assertEquals(2, run("journal", "verify", missing.toString()));
        assertTrue(err.toString().startsWith("sluice: no journal in " + missing.toAbsolutePath()), err::toString);
        assertEquals(2, run("replay", missing.toString(), "--verify"));
    }

    @Test
    void shouldReplayTheDemoDecisionForDecision() {
        assertEquals(0, run("replay", journal.toString(), "--verify"), out + "" + err);
        assertTrue(out.toString().contains("0 differences"), out::toString);
        assertTrue(out.toString().contains("real time"), out::toString);
    }

    @Test
    void shouldShowWhatAnotherPolicyWouldHaveDone() throws Exception {
        String policy;
        try (InputStream in = getClass().getResourceAsStream("/dev/sluice/transport/demo/demo-policy.yaml")) {
            policy = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path other = Files.writeString(tmp.resolve("strict.yaml"), policy.replace(
            "request_queue_limit_per_worker: 16", "request_queue_limit_per_worker: 1"));
        assertEquals(0, run("replay", journal.toString(), "--router-policy-config", other.toString()),
            out + "" + err);
        assertTrue(out.toString().contains("agent_long") && out.toString().contains("TTFT p99 ms"), out::toString);
    }

    @Test
    void shouldTreatMissingModesAndHelpAsTheUsageSays() {
        assertEquals(2, run("replay", journal.toString()));
        assertEquals(2, run("journal"));
        assertEquals(0, run("journal", "show", "--help"));
        assertTrue(out.toString().contains("--session"), out::toString);
        assertEquals(0, run("replay", "--help"));
    }
}
