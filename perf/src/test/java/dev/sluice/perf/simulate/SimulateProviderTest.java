package dev.sluice.perf.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.cli.SluiceMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code sluice simulate} as the command line finds it when perf is on the classpath: listed, helped, run. */
class SimulateProviderTest {
    @Test
    void shouldListSimulateAmongTheCommands() {
        StringWriter out = new StringWriter();
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(out, true));
        assertEquals(0, cli.execute("--help"));
        assertTrue(out.toString().contains("\n  simulate "), out::toString);
        assertEquals(0, cli.execute("simulate", "quality", "--help"));
        assertTrue(out.toString().contains("Usage: sluice simulate quality"), out::toString);
    }

    @Test
    void shouldRunAnExperimentAndExitWith2OnABadOption() {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = SluiceMain.commandLine().execute("simulate", "prefix-cache", "--workers", "2", "--duration", "20s");
        } finally {
            System.setOut(original);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text);
        assertTrue(text.contains("sluice simulate prefix-cache: 2 workers") && text.contains("round-robin"), text);
        CommandLine cli = SluiceMain.commandLine();
        cli.setErr(new PrintWriter(new StringWriter(), true));
        assertEquals(2, cli.execute("simulate", "agents", "--workers", "0"));
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err, true));
        assertEquals(2, cli.execute("simulate", "fairness", "--format", "csv"));
        assertTrue(err.toString().contains("--format must be table or json, was \"csv\""), err::toString);
    }
}
