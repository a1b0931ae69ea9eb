package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.telemetry.EngineMetricsSettings;
import dev.sluice.transport.frontend.EngineSetup;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code serve}'s options for reading remote engines' metrics: on by default every second, {@code 0} off, and the
 * operator's {@code --engine-total-kv-blocks} an override of the engines' own figure.
 */
class EngineMetricsOptionsTest {
    private static final String URL = "http://127.0.0.1:8001";

    /** {@code sluice serve OPTIONS} parsed and not run: the remote engines' setup. */
    private static EngineSetup.Remote setup(String... options) {
        String[] args = new String[options.length + 3];
        args[0] = "serve";
        args[1] = "--engine-url";
        args[2] = URL;
        System.arraycopy(options, 0, args, 3, options.length);
        ServeCommand serve = (ServeCommand) SluiceMain.commandLine().parseArgs(args).subcommand().commandSpec()
            .userObject();
        return serve.remote.setup("m", 16);
    }

    @Test
    void shouldReadEachEnginesMetricsEverySecondAndTakeItsCapacityByDefault() {
        EngineSetup.Remote remote = setup();

        assertEquals(new EngineMetricsSettings(Duration.ofSeconds(1), Duration.ofSeconds(5), true), remote.metrics());
        assertEquals(RemoteEngineOptions.DEFAULT_TOTAL_KV_BLOCKS, remote.engines().getFirst().http().runtimeConfig()
            .totalKvBlocks(), "the capacity until the engine says its own");
    }

    @Test
    void shouldLetTheOperatorsCapacityWinAndTurnScrapingOffWithZero() {
        EngineSetup.Remote remote = setup("--engine-total-kv-blocks", "777", "--engine-metrics-interval", "0",
            "--engine-connect-timeout", "2s");

        assertEquals(new EngineMetricsSettings(Duration.ZERO, Duration.ofSeconds(2), false), remote.metrics());
        assertEquals(777, remote.engines().getFirst().http().runtimeConfig().totalKvBlocks());
    }

    @Test
    void shouldExitWith2OnANegativeInterval() {
        StringWriter err = new StringWriter();
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));

        assertEquals(2, cli.execute("serve", "--no-journal", "--engine-url", URL, "--engine-metrics-interval", "-1s"));
        assertTrue(err.toString().contains("--engine-metrics-interval must be >= 0 (0: never), was PT-1S"),
            err::toString);
    }
}
