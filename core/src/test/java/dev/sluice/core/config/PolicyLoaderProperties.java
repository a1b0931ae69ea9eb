package dev.sluice.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.Callable;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Properties of the policy loader under generated bad input: whatever the document, {@link RouterPolicyLoader}
 * returns a configuration or throws a {@link ConfigException} whose message names the source (and a position when
 * it has one), within a time bound; never another exception, never a hang. Alias bombs are refused quickly.
 * jqwik prints the number of tries of each property.
 */
class PolicyLoaderProperties {
    private static final String SOURCE = "fuzz-policy.yaml";
    private static final Duration BOUND = Duration.ofSeconds(2);
    private static final String[] NUMERIC_KEYS = {"quantum: 2048", "min_tokens: 3072", "quantum: 1024",
        "prefill_busy_threshold_frac: 16.0", "request_queue_limit_per_worker: 64", "prefill_busy_threshold: 65536"};
    private static Path directory;

    @BeforeContainer
    static void createDirectory() throws IOException {
        directory = Files.createTempDirectory("sluice-policy-fuzz");
    }

    @AfterContainer
    static void deleteDirectory() throws IOException {
        try (var files = Files.list(directory)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.delete(file);
            }
        }
        Files.delete(directory);
    }

    @Property(tries = 3000)
    void mutatedPoliciesAreRejectedCleanlyOrAccepted(@ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int n) {
        String yaml = PolicyMutations.mutate(new Random(seed), n);
        parsesOrFailsCleanly(() -> RouterPolicyLoader.parse(yaml, SOURCE));
    }

    @Property(tries = 1000)
    void numbersOfAnySizeInNumericFieldsAreRejectedCleanlyOrAccepted(@ForAll("numbers") String number,
                                                                     @ForAll @IntRange(min = 0, max = 5) int key) {
        String field = NUMERIC_KEYS[key];
        String yaml = PolicyMutations.VALID.replace(field, field.substring(0, field.indexOf(':') + 2) + number);
        parsesOrFailsCleanly(() -> RouterPolicyLoader.parse(yaml, SOURCE));
    }

    @Property(tries = 1000)
    void arbitraryTextIsRejectedCleanlyOrAccepted(@ForAll @StringLength(max = 400) String text) {
        parsesOrFailsCleanly(() -> RouterPolicyLoader.parse(text, SOURCE));
    }

    @Property(tries = 300)
    void randomBytesOnDiskAreRejectedCleanly(@ForAll @Size(max = 2048) byte[] bytes) throws IOException {
        Path file = Files.write(directory.resolve(SOURCE), bytes);
        parsesOrFailsCleanly(() -> RouterPolicyLoader.load(file));
    }

    @Property(tries = 300)
    void invalidUtf8InAValidFileIsRejectedNamingTheFile(@ForAll @IntRange(min = 0, max = 4000) int at,
                                                       @ForAll("invalidUtf8") byte[] bad) throws IOException {
        byte[] valid = PolicyMutations.VALID.getBytes(StandardCharsets.UTF_8);
        int cut = Math.min(at, valid.length);
        byte[] bytes = new byte[valid.length + bad.length];
        System.arraycopy(valid, 0, bytes, 0, cut);
        System.arraycopy(bad, 0, bytes, cut, bad.length);
        System.arraycopy(valid, cut, bytes, cut + bad.length, valid.length - cut);
        Path file = Files.write(directory.resolve(SOURCE), bytes);
        ConfigException error = assertThrows(ConfigException.class, () -> RouterPolicyLoader.load(file));
        assertTrue(error.getMessage().endsWith(": not valid UTF-8"), error.getMessage());
        assertClean(error);
    }

    @Property(tries = 300)
    void nestingOfAnyDepthIsRejectedCleanlyOrAccepted(@ForAll @IntRange(min = 0, max = 400) int depth) {
        String yaml = PolicyMutations.VALID.replace("quantum: 2048", "quantum: " + PolicyMutations.nested(depth));
        parsesOrFailsCleanly(() -> RouterPolicyLoader.parse(yaml, SOURCE));
    }

    @Property(tries = 200)
    void aliasBombsAreRefusedQuickly(@ForAll @IntRange(min = 2, max = 12) int levels,
                                     @ForAll @IntRange(min = 2, max = 12) int width) {
        String yaml = PolicyMutations.bomb(levels, width);
        ConfigException error = assertTimeoutPreemptively(Duration.ofMillis(500),
            () -> assertThrows(ConfigException.class, () -> RouterPolicyLoader.parse(yaml, SOURCE)));
        assertTrue(error.detail().contains("aliases are not supported"), error.getMessage());
        assertEquals(2, error.line(), error.getMessage());
        assertClean(error);
    }

    @Provide
    Arbitrary<String> numbers() {
        return Arbitraries.oneOf(
            Arbitraries.bigIntegers().map(String::valueOf),
            Arbitraries.doubles().withSpecialValue(Double.NaN).withSpecialValue(Double.POSITIVE_INFINITY)
                .withSpecialValue(Double.MIN_VALUE).map(String::valueOf),
            Arbitraries.of(".nan", ".inf", "-.inf", "1e400", "-1e400", "1e-400", "0x7fffffffffffffff", "0o777",
                "1_000", "+12", "012", "9".repeat(63), "9".repeat(65), "1." + "0".repeat(100)),
            Arbitraries.longs().map(String::valueOf));
    }

    @Provide
    Arbitrary<byte[]> invalidUtf8() {
        return Arbitraries.of(new byte[] {(byte) 0xff}, new byte[] {(byte) 0xc0, (byte) 0x80},
            new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, new byte[] {(byte) 0xe2, (byte) 0x82},
            new byte[] {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, new byte[] {(byte) 0x80});
    }

    /**
     * Runs {@code parse} within {@link #BOUND}; a configuration or a clean {@link ConfigException} passes. jqwik's
     * report shows how many tries ended each way.
     */
    private static void parsesOrFailsCleanly(Callable<RouterPolicyConfig> parse) {
        String outcome = assertTimeoutPreemptively(BOUND, () -> {
            try {
                assertNotNull(parse.call());
                return "valid config";
            } catch (ConfigException e) {
                assertClean(e);
                return e.line() > 0 ? "ConfigException at a position" : "ConfigException naming the source";
            }
        });
        Statistics.label("outcome").collect(outcome);
    }

    private static void assertClean(ConfigException e) {
        String message = e.getMessage();
        assertFalse(e.detail().isBlank(), message);
        assertTrue(message.contains(SOURCE), () -> "the message names no source: " + message);
        assertTrue(e.line() >= 0 && e.column() >= 0, message);
        assertFalse(message.contains("\n\tat "), message);
    }
}
