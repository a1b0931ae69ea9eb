package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.JournalVerifier;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.RawHttp;
import dev.sluice.transport.testing.SluiceProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sluice serve} as its own process, killed with {@code kill -9} under load, then restarted on the same
 * journal: {@code journal verify} passes on everything the killed process wrote (lifecycles it left running are
 * reported as unfinished, not as broken), the restarted process appends a second run, and verify still passes.
 */
class ServeKillRestartSystemTest {
    private static final Pattern READY = Pattern.compile("sluice serving \\S+ on (http://\\S+)");
    private static final String MODEL = "crash";
    private static final int CLIENTS = 6;

    @TempDir
    Path tmp;

    @Test
    void shouldVerifyTheJournalAfterKillMinus9AndAppendAfterRestart() throws Exception {
        Path dir = tmp.resolve("journal");
        long served;
        try (SluiceProcess serve = serve(dir)) {
            AtomicLong ok = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> clients = load(port(serve), ok, stop);
            Await.until("100 requests served under load", () -> ok.get() >= 100);
            assertEquals(137, serve.kill(), "SIGKILL: 128 + 9");
            stop.set(true);
            for (Thread client : clients) {
                client.join();
            }
            served = ok.get();
        }
        String report = verify(dir, 0);
        assertTrue(report.contains("checked 1 runs") && report.contains("all invariants hold"), report);
        assertTrue(report.contains("run 1 did not close cleanly"), report);
        List<JournalRun> runs = JournalRun.read(dir, null);
        assertEquals(List.of(), JournalVerifier.verify(runs.get(0)));
        assertTrue(JournalVerifier.unfinished(runs.get(0)).size() <= CLIENTS, report);
        long completed = completed(runs.get(0));
        assertTrue(completed >= served - CLIENTS, "completions journaled: " + completed + " of " + served
            + " answered");

        try (SluiceProcess again = serve(dir)) {
            int port = port(again);
            for (int i = 0; i < 20; i++) {
                RawHttp.Response response = RawHttp.exchange(port, request(i));
                assertEquals(200, response.status(), response.text());
            }
            // The graceful shutdown runs in the JVM's shutdown hook; the JVM still reports the signal: 128 + 15.
            assertEquals(143, again.stop(), again.output());
        }
        report = verify(dir, 0);
        assertTrue(report.contains("checked 2 runs") && report.contains("all invariants hold"), report);
        assertTrue(report.contains("run 1 did not close cleanly") && !report.contains("run 2 did not"), report);
        runs = JournalRun.read(dir, null);
        assertEquals(2, runs.size());
        assertTrue(runs.get(1).closed(), "SIGTERM closes the journal cleanly");
        assertEquals(completed, completed(runs.get(0)), "the first run is as it was");
        assertEquals(20, completed(runs.get(1)), "the restarted process appended its own run");
        assertEquals(List.of(), JournalVerifier.verify(runs.get(1)));
    }

    private static SluiceProcess serve(Path dir) throws IOException, InterruptedException {
        return SluiceProcess.start(READY, List.of("serve", "--http-port", "0", "--model-name", MODEL,
            "--sim-workers", "2", "--speedup-ratio", "20", "--journal-dir", dir.toString(), "--grace-period", "5s"));
    }

    private static int port(SluiceProcess process) {
        return URI.create(process.ready()).getPort();
    }

    /** Clients sending one request after another, streaming and not, until {@code stop}. */
    private static List<Thread> load(int port, AtomicLong ok, AtomicBoolean stop) {
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            clients.add(Thread.ofVirtual().name("client-" + c).start(() -> {
                for (int i = client; !stop.get(); i += CLIENTS) {
                    try {
                        if (RawHttp.exchange(port, request(i)).status() == 200) {
                            ok.incrementAndGet();
                        }
                    } catch (IOException e) {
                        // The server was killed under this request.
                    }
                }
            }));
        }
        return clients;
    }

    private static byte[] request(int i) {
        return RawHttp.post("/v1/completions", Map.of("x-request-id", "r-" + i), ("{\"model\":\"" + MODEL
            + "\",\"prompt\":\"request " + i + "\",\"max_tokens\":" + (4 + i % 29) + ",\"stream\":" + (i % 2 == 0)
            + "}").getBytes(StandardCharsets.UTF_8));
    }

    /** {@code sluice journal verify DIR}, expecting {@code exitCode}; its output. */
    private static String verify(Path dir, int exitCode) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int code = cli.execute("journal", "verify", dir.toString());
        assertEquals(exitCode, code, out + "\n" + err);
        return out.toString();
    }

    private static long completed(JournalRun run) {
        return run.lifecycles().values().stream().filter(l -> l.first(JournalRecord.Completed.class) != null)
            .count();
    }
}
