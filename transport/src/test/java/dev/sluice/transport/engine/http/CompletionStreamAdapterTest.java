package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.engine.FinishReason;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OpenAI completion chunks to text deltas, finish reason, usage and failures. */
class CompletionStreamAdapterTest {
    private final List<String> texts = new ArrayList<>();
    private final CompletionStreamAdapter adapter = new CompletionStreamAdapter(texts::add);

    private void feed(String stream) {
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        new SseParser(adapter, 1 << 16).feed(bytes, 0, bytes.length);
    }

    /** One {@code message} event with this data, as the event parser hands it over. */
    private static void event(CompletionStreamAdapter adapter, String data) {
        byte[] bytes = ("  " + data).getBytes(StandardCharsets.UTF_8);
        adapter.onEvent("message", bytes, 2, bytes.length - 2);
    }

    @Test
    void shouldPassTextDeltasAndTakeUsageFromTheFinalChunk() {
        feed("""
            data: {"id":"cmpl-1","object":"text_completion","choices":[{"index":0,"text":"","finish_reason":null}]}

            data: {"choices":[{"index":0,"text":"Hello","finish_reason":null}],"usage":null}

            data: {"choices":[{"index":0,"text":" world","finish_reason":"length"}],"usage":null}

            data: {"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}

            data: [DONE]

            data: {"choices":[{"index":0,"text":"after the end"}]}

            """);
        assertEquals(List.of("Hello", " world"), texts, "empty deltas are skipped, nothing after [DONE]");
        assertTrue(adapter.done());
        assertNull(adapter.errorKind());
        assertEquals(FinishReason.LENGTH, adapter.finishReason());
        assertEquals(7, adapter.promptTokens());
        assertEquals(2, adapter.completionTokens());
    }

    @Test
    void shouldReadChatShapedDeltasToo() {
        feed("data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}"
            + "\n\n");
        assertEquals(List.of("Hi"), texts);
        assertEquals(FinishReason.STOP, adapter.finishReason());
        assertEquals(-1, adapter.promptTokens(), "no usage chunk");
    }

    @Test
    void shouldFailOnAnErrorChunkWithTheUpstreamMessage() {
        feed("data: {\"choices\":[{\"text\":\"a\"}]}\n\ndata: {\"error\":{\"message\":\"out of memory\"}}\n\n"
            + "data: {\"choices\":[{\"text\":\"b\"}]}\n\n");
        assertEquals(List.of("a"), texts);
        assertEquals(ErrorKind.FAILED, adapter.errorKind());
        assertEquals("the engine failed the request: out of memory", adapter.errorMessage());
        assertFalse(adapter.done());
    }

    @Test
    void shouldFailOnAnErrorEventWhateverItsData() {
        feed("event: error\ndata: not json\n\n");
        assertEquals("the engine failed the request", adapter.errorMessage());
    }

    @Test
    void shouldFailOnMalformedChunks() {
        feed("data: {\"choices\":[{\"text\":\"a\"}]\n\n");
        assertEquals("the engine sent a malformed stream event", adapter.errorMessage());
        CompletionStreamAdapter other = new CompletionStreamAdapter(texts::add);
        event(other, "{\"object\":\"text_completion\"}");
        assertEquals(ErrorKind.FAILED, other.errorKind(), "a chunk without choices");
    }

    @Test
    void shouldCutLongUpstreamMessages() {
        event(adapter, "{\"error\":{\"message\":\"" + "x".repeat(500) + "\"}}");
        assertEquals("the engine failed the request: ".length() + CompletionStreamAdapter.MAX_MESSAGE_CHARS + 3,
            adapter.errorMessage().length());
    }

    @Test
    void shouldReadUnusualChunksAsTheTreeReadingWould() {
        feed("data: {\"choices\":[{\"text\":null,\"delta\":{\"content\":\"ignored: text is present\"}}]}\n\n"
            + "data: {\"choices\":[\"odd\",{\"text\":\"second choice\"}],\"usage\":[1]}\n\n"
            + "data: {\"x\":{\"choices\":[]},\"choices\":[{\"finish_reason\":\"length\",\"text\":\"é\\n\"}]}\n\n"
            + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":\"7\",\"completion_tokens\":null}}\n\n");
        assertEquals(List.of("é\n"), texts, "a null text hides the delta; only the first choice counts");
        assertEquals(FinishReason.LENGTH, adapter.finishReason());
        assertEquals(7, adapter.promptTokens(), "a count given as a string, as Jackson's tree reads it");
        assertEquals(-1, adapter.completionTokens(), "a null count is not reported");
        assertNull(adapter.errorKind());
    }

    @Test
    void shouldFailOnATruncatedChunkEvenWhenItsStartLooksOrdinary() {
        event(adapter, "{\"choices\":[{\"text\":\"a\"}]");
        assertEquals("the engine sent a malformed stream event", adapter.errorMessage());
        assertEquals(List.of(), texts);
    }

    @Test
    void shouldReadTheSameStreamWhateverWayItIsSplit() {
        String stream = """
            data: {"choices":[{"index":0,"text":"日本","finish_reason":null}],"usage":null}

            data: {"choices":[{"index":0,"text":" 😀 ok","finish_reason":null}],"usage":null}\r
            \r
            data: {"choices":[{"index":0,"text":"","finish_reason":"stop"}],"usage":null}

            data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}

            data: [DONE]

            """;
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        for (int size = 1; size <= bytes.length; size++) {
            List<String> pieces = new ArrayList<>();
            CompletionStreamAdapter fresh = new CompletionStreamAdapter(pieces::add);
            SseParser parser = new SseParser(fresh, 1 << 16);
            for (int at = 0; at < bytes.length; at += size) {
                parser.feed(bytes, at, Math.min(size, bytes.length - at));
            }
            assertEquals(List.of("日本", " 😀 ok"), pieces, "pieces of " + size + " bytes");
            assertTrue(fresh.done());
            assertEquals(FinishReason.STOP, fresh.finishReason());
            assertEquals(3, fresh.promptTokens());
            assertEquals(2, fresh.completionTokens());
        }
    }

    @Test
    void shouldReadIllFormedUtf8WithReplacementCharactersAsBefore() {
        // Overlong forms of '/' (two, three, four bytes), an encoded surrogate, beyond U+10FFFF, a five-byte form, a
        // stray continuation byte, a cut-off sequence.
        byte[][] bad = {{(byte) 0xc0, (byte) 0xaf}, {(byte) 0xe0, (byte) 0x80, (byte) 0xaf},
            {(byte) 0xf0, (byte) 0x80, (byte) 0x80, (byte) 0xaf}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
            {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80,
            (byte) 0x80}, {(byte) 0x80}, {(byte) 0xe6, (byte) 0x97}};
        for (byte[] text : bad) {
            texts.clear();
            CompletionStreamAdapter fresh = new CompletionStreamAdapter(texts::add);
            byte[] head = "{\"choices\":[{\"text\":\"a".getBytes(StandardCharsets.UTF_8);
            byte[] tail = "z\"}]}".getBytes(StandardCharsets.UTF_8);
            byte[] chunk = new byte[head.length + text.length + tail.length];
            System.arraycopy(head, 0, chunk, 0, head.length);
            System.arraycopy(text, 0, chunk, head.length, text.length);
            System.arraycopy(tail, 0, chunk, head.length + text.length, tail.length);
            fresh.onEvent("message", chunk, 0, chunk.length);
            assertNull(fresh.errorKind());
            assertEquals(List.of("a" + new String(text, StandardCharsets.UTF_8) + "z"), texts,
                "U+FFFD for each ill-formed part, as before");
        }
    }

    @Test
    void shouldReadChunksThatDoNotStartAsUsualAsTheTreeDoes() {
        event(adapter, " {\"choices\":[{\"text\":\"spaced\"}]}");
        event(adapter, "{\"choices\":[{\"text\":\"trailing\"}]} x");
        assertEquals(List.of("spaced", "trailing"), texts);
        event(adapter, "[DONE] ");
        assertEquals("the engine sent a malformed stream event", adapter.errorMessage(), "only [DONE] itself ends");
    }

    @Test
    void shouldFailOnAnErrorEventEvenWhenItLooksLikeAChunk() {
        feed("event: error\ndata: {\"choices\":[{\"text\":\"a\"}],\"error\":\"overloaded\"}\n\n");
        assertEquals(List.of(), texts);
        assertEquals("the engine failed the request: overloaded", adapter.errorMessage());
    }

    @Test
    void shouldReadOrdinaryChunksAfterOnesTheStreamingPassLeftHalfRead() {
        event(adapter, "{\"choices\":[{\"text\":\"a\"}],\"usage\":{\"prompt_tokens\":\"7\",\"x\":[1,2]}}");
        event(adapter, "{\"choices\":[{\"text\":\"b\"}]}");
        event(adapter, "{\"choices\":[{\"text\":\"c\"}]} {\"choices\":[{\"text\":\"not read\"}]}");
        event(adapter, "{\"choices\":[{\"text\":\"d\"}]}  \n");
        event(adapter, "{\"choices\":[{\"text\":\"e\"}]}");
        event(adapter, "{\"choices\":[{\"text\":\"f\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":6}}");
        event(adapter, "[DONE]");
        assertEquals(List.of("a", "b", "c", "d", "e", "f"), texts,
            "a count the pass does not read, bytes after the object: each chunk read as it would be alone");
        assertEquals(3, adapter.promptTokens());
        assertEquals(6, adapter.completionTokens());
        assertTrue(adapter.done());
    }
}
