package dev.sluice.core.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The README's embedding section gives an embedder the one line of JVM flags core needs: it must be the line of
 * {@code scripts/jvm.properties}, the one the launcher, the tests and the benchmarks run with.
 */
class EmbeddingDocTest {
    private static final Path ROOT = Path.of("..");

    @Test
    void theReadmeShouldGiveTheJvmFlagsSluiceRunsWith() throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(Files.readString(ROOT.resolve("scripts/jvm.properties"))));
        String readme = Files.readString(ROOT.resolve("README.md"));
        int section = readme.indexOf("## Embedding");
        assertTrue(section >= 0, "the README has an embedding section");
        int start = readme.indexOf("```\n", section) + 4;
        String line = readme.substring(start, readme.indexOf("\n```", start)).trim();
        assertEquals(flags(properties.getProperty("sluice.jvm.args")), flags(line));
        String later = readme.substring(section, readme.indexOf("\n## ", section + 1));
        assertTrue(later.contains("`" + properties.getProperty("sluice.jvm.args.jdk24").trim() + "`"),
            "the JDK 24+ flags are named too");
    }

    @Test
    void theEmbeddingGuideShouldShowItsExampleAsItIs() throws IOException {
        String guide = Files.readString(ROOT.resolve("core/EMBEDDING.md"));
        String example = Files.readString(ROOT.resolve(
            "core/examples/embedding/src/main/java/example/EmbeddedRouter.java"));
        int start = guide.indexOf("```java\n") + "```java\n".length();
        assertEquals(example, guide.substring(start, guide.indexOf("```\n", start)),
            "core/EMBEDDING.md shows core/examples/embedding's program, which scripts/test builds and runs");
    }

    private static List<String> flags(String line) {
        return Arrays.stream(line.trim().split("\\s+")).toList();
    }
}
