package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice demo} as a new user runs it: real HTTP on loopback, a summary, a report and a journal, and the
 * summary's figures are the ones {@code journal stats} computes from that journal.
 */
class HttpDemoTest {
    @Test
    void shouldRunTheHttpDemoAndAccountForEveryRequest(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report.html");
        Path journal = dir.resolve("journal");
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = SluiceMain.commandLine().execute("demo", "--duration", "5s", "--sim-workers", "2", "--seed", "3",
                "--report", report.toString(), "--journal-dir", journal.toString());
        } finally {
            System.setOut(original);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text);
        assertTrue(text.contains("accounting   every request ended exactly once: yes"), text);
        assertTrue(text.contains("interactive_short"), text);
        assertTrue(text.contains("report       " + report), text);
        assertTrue(text.contains("scripts/sluice journal verify " + journal), text);
        String html = Files.readString(report);
        assertTrue(html.contains("<svg") && html.contains("TTFT (router: ingress to first response item)")
            && html.contains("Queue wait (router: enqueue to dispatch)") && html.contains("<polyline"), html);
        assertTrue(html.contains("every request ended exactly once: yes"), html);
        assertTrue(html.contains("admitted: dispatched to a worker"), "the report defines its figures");
        FiguresAgreement.assertAgree(FiguresAgreement.httpRows(text), journal, text);
        assertTrue(!html.contains("<script") && !html.contains("<link") && !html.contains(" src="),
            "the report must be self-contained");
    }
}
