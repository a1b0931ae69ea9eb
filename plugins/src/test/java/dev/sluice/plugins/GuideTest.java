package dev.sluice.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.router.RouterPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code GUIDE.md} cannot drift from the code: every Java block is an excerpt of a source file of this module or of
 * the example, the configuration block is the example's {@code admission.yaml}, and every YAML block loads and
 * resolves against the built-in plugins.
 */
class GuideTest {
    private static final Path GUIDE = Path.of("GUIDE.md");

    private record Block(String language, String text) {
    }

    private static List<Block> blocks() throws Exception {
        List<Block> blocks = new ArrayList<>();
        String language = null;
        StringBuilder text = new StringBuilder();
        for (String line : Files.readAllLines(GUIDE)) {
            if (line.startsWith("```")) {
                if (language == null) {
                    language = line.substring(3).trim();
                    text.setLength(0);
                } else {
                    blocks.add(new Block(language, text.toString()));
                    language = null;
                }
            } else if (language != null) {
                text.append(line).append('\n');
            }
        }
        return blocks;
    }

    private static List<String> sources() throws Exception {
        List<String> texts = new ArrayList<>();
        for (Path root : List.of(Path.of("src", "main"), AcmeExampleTest.EXAMPLE)) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(f -> Files.isRegularFile(f) && f.toString().endsWith(".java")
                    && !f.toString().contains("target")).toList()) {
                    texts.add(Files.readString(file));
                }
            }
        }
        return texts;
    }

    @Test
    void shouldQuoteEveryJavaBlockFromRealCode() throws Exception {
        List<String> sources = sources();
        int java = 0;
        for (Block block : blocks()) {
            if (block.language().equals("java")) {
                java++;
                assertTrue(sources.stream().anyMatch(s -> s.contains(block.text())),
                    "GUIDE.md quotes code that is not in the repository:\n" + block.text());
            }
        }
        assertTrue(java >= 8, "the guide shows the classifier, provider, registration, catalog and the pattern");
    }

    @Test
    void shouldShowTheExamplesConfigurationAndServiceFileVerbatim() throws Exception {
        List<Block> blocks = blocks();
        assertTrue(blocks.contains(new Block("yaml",
            Files.readString(AcmeExampleTest.EXAMPLE.resolve("admission.yaml")))));
        assertTrue(blocks.contains(new Block("", Files.readString(AcmeExampleTest.EXAMPLE.resolve(
            "catalog/src/main/resources/META-INF/services/dev.sluice.core.spi.RouterPluginCatalog")))));
    }

    @Test
    void shouldResolveEveryBuiltInYamlBlock() throws Exception {
        RouterPlugins registry = RouterPlugins.loadCatalogs(getClass().getClassLoader());
        int resolved = 0;
        for (Block block : blocks()) {
            if (block.language().equals("yaml") && !block.text().contains("acme-")) {
                RouterPolicyConfig config = RouterPolicyLoader.parse(block.text(), "GUIDE.md");
                assertFalse(registry.resolveRequestClassifier(config.requestClassifier()).isEmpty());
                registry.resolveWorkerSelector(config.workerSelection(), "aggregated");
                resolved++;
            }
        }
        assertEquals(4, resolved);
    }
}
