package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.config.ConfigException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The engines file reads strictly and names the file, line, column and key of what is wrong. */
class EnginesFileTest {
    private static final Path BASE = Path.of("/etc/sluice");

    private static EnginesFile parse(String yaml) throws ConfigException {
        return EnginesFile.parse(yaml, "engines.yaml", BASE);
    }

    private static String error(String yaml) {
        return assertThrows(ConfigException.class, () -> parse(yaml)).getMessage();
    }

    @Test
    void shouldReadModelsAndTheirEnginesWithDefaults() throws ConfigException {
        EnginesFile file = parse("""
            models:
              llama:
                tokenizer: tokenizers/llama
                block_size: 32
                engines:
                  - url: http://10.0.0.1:8000/v1
                    kv_events: tcp://10.0.0.1:5557
                    kv_replay: tcp://10.0.0.1:5558
                    total_kv_blocks: 4096
                  - url: http://10.0.0.2:8000
                    metrics: false
              qwen:
                engine_model: Qwen/Qwen3-8B
                engines:
                  - {url: https://gpu-3.internal, metrics: "http://gpu-3.internal:9100/metrics"}
            """);
        assertEquals(List.of("llama", "qwen"), List.copyOf(file.models().keySet()));
        EnginesFile.Model llama = file.models().get("llama");
        assertEquals(Optional.of(Path.of("/etc/sluice/tokenizers/llama")), llama.tokenizer());
        assertEquals("llama", llama.engineModel());
        assertEquals(OptionalInt.of(32), llama.blockSize());
        EnginesFile.Engine first = llama.engines().get(0);
        assertEquals(Optional.of("tcp://10.0.0.1:5557"), first.kvEvents());
        assertEquals(Optional.of(URI.create("http://10.0.0.1:8000/metrics")), first.metrics());
        assertEquals(OptionalLong.of(4096), first.totalKvBlocks());
        assertEquals(Optional.empty(), llama.engines().get(1).metrics());
        EnginesFile.Model qwen = file.models().get("qwen");
        assertEquals("Qwen/Qwen3-8B", qwen.engineModel());
        assertEquals(Optional.empty(), qwen.tokenizer());
        assertEquals(Optional.of(URI.create("http://gpu-3.internal:9100/metrics")), qwen.engines().get(0).metrics());
    }

    @Test
    void shouldNameWhatIsWrongAndWhere() {
        assertEquals("engines.yaml:1:1: models: expected at least one model", error("models: {}\n"));
        String unknown = error("models:\n  m:\n    engines:\n      - url: http://a:1\n        kv_event: tcp://a:2\n");
        assertTrue(unknown.startsWith("engines.yaml:5:9: models.m.engines[0].kv_event: unknown key"), unknown);
        String url = error("models:\n  m:\n    engines:\n      - url: ftp://a\n");
        assertTrue(url.startsWith("engines.yaml:4:9: models.m.engines[0].url: expected an http:// or https:// URL"),
            url);
        String zmq = error("models:\n  m:\n    engines:\n      - {url: 'http://a:1', kv_events: 'a:5557'}\n");
        assertTrue(zmq.contains("models.m.engines[0].kv_events: expected a ZMQ endpoint such as tcp://"), zmq);
        String twice = error("models:\n  m:\n    engines:\n      - url: http://a:1\n      - url: http://a:1\n");
        assertTrue(twice.contains("engine http://a:1 is listed twice for model m"), twice);
        String none = error("models:\n  m:\n    engines: []\n");
        assertTrue(none.contains("models.m.engines: expected at least one engine"), none);
        String replay = error("models:\n  m:\n    engines:\n      - {url: 'http://a:1', kv_replay: 'tcp://a:2'}\n");
        assertTrue(replay.contains("a replay socket needs kv_events too"), replay);
        String blocks = error("models:\n  m:\n    engines:\n      - {url: 'http://a:1', total_kv_blocks: 0}\n");
        assertTrue(blocks.contains("total_kv_blocks: expected an integer from 1"), blocks);
        String syntax = error("models:\n  m: [unclosed\n");
        assertTrue(syntax.startsWith("engines.yaml:") && syntax.contains("failed to parse engines file"), syntax);
    }
}
