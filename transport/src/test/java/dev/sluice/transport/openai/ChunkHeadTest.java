package dev.sluice.transport.openai;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A stream's chunks written from a head rendered once are the chunks written whole. */
class ChunkHeadTest {
    private static final String[] TEXTS = {"plain", " spaced", "quote \" and \\ back", "new\nline\ttab\u0001",
        "caf\u00e9 \u6c34", "emoji \ud83c\udf0a", "lone \ud800 surrogate", "</script>", ""};

    @Test
    void shouldWriteEveryChunkByteForByteAsTheWholeChunk() {
        for (CompletionRequest.Endpoint endpoint : CompletionRequest.Endpoint.values()) {
            CompletionHeader header = CompletionHeader.of(endpoint, "sluice-1a-2", 1_700_000_000L,
                "mod\"el/\u00e9\ud83c\udf0a");
            OpenAiJson.ChunkHead head = OpenAiJson.chunkHead(header);
            for (String text : TEXTS) {
                for (int flags = 0; flags < 8; flags++) {
                    boolean first = (flags & 1) != 0;
                    boolean usage = (flags & 2) != 0;
                    String finish = (flags & 4) != 0 ? "stop" : null;
                    String what = endpoint + " " + text + " " + flags;
                    assertArrayEquals(OpenAiJson.chunk(header, text, first, finish, usage),
                        OpenAiJson.chunk(head, text, first, finish, usage), what);
                }
            }
            assertArrayEquals(OpenAiJson.chunk(header, null, true, "length", true),
                OpenAiJson.chunk(head, null, true, "length", true));
        }
    }

    @Test
    void shouldRenderTheHeadFieldsEscaped() {
        CompletionHeader header = CompletionHeader.of(CompletionRequest.Endpoint.CHAT, "r", 5, "a\"b");

        assertEquals("{\"id\":\"chatcmpl-r\",\"object\":\"chat.completion.chunk\",\"created\":5,\"model\":\"a\\\"b\","
            + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":null}]}",
            new String(OpenAiJson.chunk(OpenAiJson.chunkHead(header), "x", false, null, false),
                StandardCharsets.UTF_8));
    }
}
