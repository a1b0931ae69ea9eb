package dev.sluice.transport.tokenize.hf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.testing.TestTokenizers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DJL loads its native tokenizers library from its own jar and needs no network: a JVM in a network namespace of
 * its own ({@code unshare -n}: no interface at all, not even loopback), with an empty DJL cache directory, loads
 * Qwen3's tokenizer through {@link TokenizerRegistry} and tokenizes. Skipped where {@code unshare -n} is not allowed
 * (it needs root or user namespaces); {@code scripts/test} runs as root here and in CI.
 */
class OfflineLoadingTest {
    private static final String TEXT = "Hello, world! 你好 🌍";

    @Test
    void shouldLoadTheNativeLibraryFromItsJarWithTheNetworkClosed(@TempDir Path cache) throws Exception {
        Path qwen3 = TestTokenizers.qwen3();
        Assumptions.assumeTrue(unshareAllowed(), "unshare -n is not allowed here (it needs root or user namespaces)");
        String javaCommand = ProcessHandle.current().info().command().orElseThrow();
        Process probe = new ProcessBuilder("unshare", "-n", javaCommand, "--enable-native-access=ALL-UNNAMED",
            "-DENGINE_CACHE_DIR=" + cache, "-cp", System.getProperty("java.class.path"),
            OfflineTokenizerProbe.class.getName(), qwen3.toString(), TEXT).redirectErrorStream(true).start();
        probe.getOutputStream().close();
        String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(probe.waitFor(60, TimeUnit.SECONDS), output);
        assertEquals(0, probe.exitValue(), output);

        int[] expected;
        try (TokenizerRegistry registry = new TokenizerRegistry()) {
            expected = registry.load(qwen3).tokenize(TEXT, true);
        }
        assertTrue(output.contains("ids " + Arrays.toString(expected)), output);
        assertTrue(output.contains("offline true"), "sluice put DJL offline by itself:\n" + output);
        assertTrue(output.contains("Extracting native/lib/"), "the library came out of the jar:\n" + output);
        assertFalse(output.toLowerCase(Locale.ROOT).contains("download"), output);
        try (Stream<Path> files = Files.walk(cache)) {
            List<String> libraries = files.map(p -> p.getFileName().toString())
                .filter(name -> name.contains("tokenizers.")).toList();
            assertEquals(1, libraries.size(), "one native library in the empty cache: " + libraries);
        }
    }

    private static boolean unshareAllowed() throws InterruptedException {
        try {
            Process process = new ProcessBuilder("unshare", "-n", "true").redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
