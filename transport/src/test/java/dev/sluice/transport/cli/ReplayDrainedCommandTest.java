package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sluice replay --verify} on the journal of a router drained under load (what SIGTERM does to a serving
 * router): the requests it answered {@code shutting_down}, from its queue and at arrival, replay as they were,
 * 0 differences, no stack trace. Before, each refusal replayed as an arrival with no recorded classification.
 */
class ReplayDrainedCommandTest {
    private static final String POLICY = """
        default_policy_family: standard
        uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
        policy_classes:
          - {name: only, policy_family: standard, cache_bucket: any, quantum: 1, prefill_busy_threshold_frac: 0.5}
        """;
    private static final AdmissionListener IGNORE = AdmissionListener.of((w, id) -> { }, (e, id) -> { });

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void shouldVerifyADrainedJournalWithNoDifferences() throws Exception {
        recordDrainedUnderLoad(dir);
        assertEquals(0, run("replay", dir.toString(), "--verify"), out + "" + err);
        String text = out.toString();
        assertTrue(text.contains("decisions reproduce exactly: 0 differences"), text);
        assertFalse(text.contains("Exception") || err.toString().contains("Exception"), text + err);

        StringWriter json = new StringWriter();
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(json));
        cli.setErr(new PrintWriter(err));
        assertEquals(0, cli.execute("replay", dir.toString(), "--verify", "--json"), json + "" + err);
        JsonNode verified = new ObjectMapper().readTree(json.toString()).get("runs").get(0);
        assertTrue(verified.get("reproduced").asBoolean(), verified::toPrettyString);
        assertEquals(0, verified.get("undecided").size());
    }

    /** Forty requests on a worker that takes one at a time; the router drains with most queued, then takes more. */
    static void recordDrainedUnderLoad(Path dir) throws Exception {
        CachedNanoClock clock = new CachedNanoClock();
        clock.update(1_000_000_000L);
        RouterContext context = new RouterContext().model("m").clock(clock)
            .profile(RouterPolicyLoader.parse(POLICY, "<inline>").root().orElseThrow());
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalHeader.of(context, "<inline>",
            POLICY, "none", OptionalDouble.empty(), QueuePolicy.FCFS))) {
            context.observer(journal);
            try (ModelRouter router = ModelRouter.manual(context)) {
                router.workerJoined(WorkerWithDpRank.of(1), 100, OptionalLong.of(1000));
                step(router);
                for (int i = 0; i < 40; i++) {
                    clock.advance(10_000_000L);
                    router.submit(AdmissionRequest.builder("r" + i).inputTokens(100).build(), IGNORE);
                    step(router);
                }
                router.drain();
                step(router);
                for (int i = 40; i < 60; i++) {
                    clock.advance(10_000_000L);
                    router.submit(AdmissionRequest.builder("r" + i).inputTokens(100).build(), IGNORE);
                    step(router);
                }
            }
        }
    }

    private static void step(ModelRouter router) {
        while (router.doWork() > 0) {
            // Until idle, as the demo's driver runs it.
        }
    }
}
