package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * A usage error as the user sees it: the message, naming the option as typed, and a one-line hint at the command's
 * help (not the whole help, which would scroll the message away); exit status 2. The timeout only bounds a command
 * that, given an option it should refuse, starts serving instead.
 */
@Timeout(60)
class UsageErrorTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = SluiceMain.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void shouldPrintTheMessageAndAHintInsteadOfTheHelp() {
        assertEquals(2, run("serve", "--xyzzy"));
        assertEquals("sluice: Unknown option: '--xyzzy'\nTry 'sluice serve --help' for more information.\n",
            err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void shouldRefuseToWatchTheBundledPolicyWhichHasNoFile() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv(PolicySource.ENV) == null,
            "the environment names a policy file");
        assertEquals(2, run("serve", "--http-port", "0", "--no-journal", "--watch-config"));
        assertEquals("sluice: --watch-config needs a policy file: --router-policy-config FILE or "
            + "$DYN_ROUTER_POLICY_CONFIG\nTry 'sluice serve --help' for more information.\n", err.toString());
    }

    @Test
    void shouldSuggestTheOptionMeantAndStillPrintOnlyAHint() {
        assertEquals(2, run("serve", "--http-prot", "8001"));
        assertEquals("sluice: Unknown options: '--http-prot', '8001'\nPossible solutions: --http-host, --http-port, "
            + "--http-max-connections, --http-header-timeout, --http-body-timeout, --http-idle-timeout, --http-io\n"
            + "Try 'sluice serve --help' for more information.\n", err.toString());
    }

    @Test
    void shouldNameTheServersWhenHttpIoIsNeither() {
        assertEquals(2, run("serve", "--http-port", "0", "--no-journal", "--http-io", "epoll"));
        assertEquals("sluice: --http-io must be threads or loops, was 'epoll'\nTry 'sluice serve --help' for more "
            + "information.\n", err.toString());
    }

    @Test
    void shouldHintAtTheTopHelpForAnUnknownCommand() {
        assertEquals(2, run("serv"));
        assertEquals("sluice: Unmatched argument at index 0: 'serv'\nDid you mean: sluice serve?\n"
            + "Try 'sluice --help' for more information.\n", err.toString());
    }

    @Test
    void shouldHintAtTheSubcommandsHelpForAMissingParameter() {
        assertEquals(2, run("config", "check"));
        assertEquals("sluice: Missing required parameter: 'FILE'\n"
            + "Try 'sluice config check --help' for more information.\n", err.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "serve --speedup-ratio 0 | --speedup-ratio must be a finite number > 0, was 0.0",
        "serve --engine-url http://127.0.0.1:8001 --block-size 0 | --block-size must be >= 1 token, was 0",
        "serve --num-gpu-blocks-override 0 | --num-gpu-blocks-override must be 1..536870911 blocks, was 0",
        "serve --max-num-seqs 0 | --max-num-seqs must be >= 1, was 0",
        "serve --max-num-batched-tokens 0 | --max-num-batched-tokens must be >= 1 token, was 0",
        "serve --dp-size 0 | --dp-size must be 1..1024, was 0",
        "serve --http-port 70000 | --http-port must be 0..65535 (0: any free port), was 70000",
        "serve --max-body-bytes 0 | --max-body-bytes must be >= 1, was 0",
        "serve --default-max-tokens -1 | --default-max-tokens must be >= 0 (0: max_tokens required), was -1",
        "serve --grace-period -1s | --grace-period must not be negative, was PT-1S",
        "serve --http-max-connections 0 | --http-max-connections must be at least 1, was 0",
        "serve --http-header-timeout 0 | --http-header-timeout must be above 0 and at most 1h, was PT0S",
        "serve --http-body-timeout 2h | --http-body-timeout must be above 0 and at most 1h, was PT2H",
        "serve --http-idle-timeout -1s | --http-idle-timeout must be above 0 and at most 1h, was PT-1S",
        "serve --kv-overlap-score-weight -1 | --kv-overlap-score-weight must be a finite number >= 0, was -1.0",
        "serve --router-temperature NaN | --router-temperature must be a finite number >= 0, was NaN",
        "mock-engine --port 0 --speedup-ratio -1 | --speedup-ratio must be a finite number > 0, was -1.0",
        "mock-engine --port 65536 | --port must be 0..65535 (0: any free port), was 65536",
        "mock-engine --port 0 --default-max-tokens -1 | --default-max-tokens must be >= 0, was -1",
        "serve --tenant-header x-request-id | --tenant-header x-request-id is a header sluice or HTTP already uses "
            + "for something else; choose another, e.g. x-tenant-id",
        "serve --tenant-header X-Dynamo-Session-Id | --tenant-header X-Dynamo-Session-Id is a header sluice or HTTP "
            + "already uses for something else; choose another, e.g. x-tenant-id",
        "serve --tenant-header content-length | --tenant-header content-length is a header sluice or HTTP already "
            + "uses for something else; choose another, e.g. x-tenant-id",
        "serve --tenant-header bad:name | --tenant-header must be an HTTP header name, was 'bad:name'"})
    void shouldNameTheFlagOutOfRange(String command, String message) {
        String[] args = (command + (command.startsWith("serve") ? " --no-journal" : "")).split(" ");
        assertEquals(2, run(args), err::toString);
        String name = args[0];
        assertEquals("sluice: " + message + "\nTry 'sluice " + name + " --help' for more information.\n",
            err.toString());
    }

    @Test
    void shouldRefuseAPolicyFileThatNeverEndsWithoutReadingIt() {
        assertEquals(2, run("config", "check", "/dev/zero"));
        assertTrue(err.toString().contains("/dev/zero") && err.toString().contains("more than 1048576 bytes"),
            err::toString);
    }

    @Test
    void shouldNameTheAddressFlagsWhenServeCannotListen() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertEquals(2, run("serve", "--no-journal", "--sim-workers", "1", "--http-port", String.valueOf(port)));
            assertTrue(err.toString().startsWith("sluice: --http-host 127.0.0.1 --http-port " + port + ": cannot listen"
                + " on 127.0.0.1:" + port), err::toString);
            assertTrue(err.toString().endsWith("Try 'sluice serve --help' for more information.\n"), err::toString);
        }
    }
}
