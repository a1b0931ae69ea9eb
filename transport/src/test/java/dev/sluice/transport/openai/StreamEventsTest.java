package dev.sluice.transport.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.sluice.transport.engine.EngineQueue;
import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.engine.FinishReason;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** How a stream's events are written and when they are flushed to the client. */
class StreamEventsTest {
    private static final CompletionHeader HEADER = CompletionHeader.of(CompletionRequest.Endpoint.CHAT, "r1", 7, "m");
    private static final Function<EngineQueue.Failed, OpenAiException> ERRORS =
        failed -> new OpenAiException(502, failed.message(), null, "engine_error");

    @Test
    void shouldWriteEveryEventAlreadyQueuedInOneFlush() throws Exception {
        EngineQueue queue = new EngineQueue();
        queue.onText("a");
        queue.onText(" b");
        queue.onText(" c");
        queue.onFinished(FinishReason.STOP, 4, 3);
        FlushRecorder out = new FlushRecorder(() -> { });

        CompletionResponder.Outcome outcome = write(queue, false, CompletionResponder.Flushing.COALESCED, out);

        assertEquals(new CompletionResponder.Finished(4, 3), outcome);
        assertEquals(List.of(expected("a", " b", " c")), out.flushes,
            "the three tokens, the finish chunk and [DONE] leave in one flush, framed as one event each");
    }

    @Test
    void shouldFlushALoneFirstTokenBeforeWaitingForTheNext() throws Exception {
        EngineQueue queue = new EngineQueue();
        queue.onText("a");
        // The engine produces the rest only once the first token has been flushed: a writer that held the first
        // token for company would wait in take() forever.
        FlushRecorder out = new FlushRecorder(() -> {
            queue.onText(" b");
            queue.onFinished(FinishReason.LENGTH, 4, 2);
        });

        write(queue, false, CompletionResponder.Flushing.COALESCED, out);

        assertEquals(List.of(event(chunk("{\"role\":\"assistant\",\"content\":\"a\"}", "null")),
            event(chunk("{\"content\":\" b\"}", "null")) + event(chunk("{}", "\"length\"")) + "data: [DONE]\n\n"),
            out.flushes);
    }

    @Test
    void shouldFlushAnEngineFailureWithTheEventsQueuedBeforeIt() throws Exception {
        EngineQueue queue = new EngineQueue();
        queue.onText("a");
        queue.onError(ErrorKind.FAILED, "gone");
        FlushRecorder out = new FlushRecorder(() -> { });

        CompletionResponder.Outcome outcome = write(queue, false, CompletionResponder.Flushing.COALESCED, out);

        assertInstanceOf(CompletionResponder.Failed.class, outcome);
        assertEquals(List.of(event(chunk("{\"role\":\"assistant\",\"content\":\"a\"}", "null"))
            + event("{\"error\":{\"message\":\"gone\",\"type\":\"upstream_error\",\"param\":null,"
                + "\"code\":\"engine_error\"}}") + "data: [DONE]\n\n"), out.flushes);
    }

    @Test
    void shouldKeepTheUsageChunkAfterTheFinishInTheSameFlush() throws Exception {
        EngineQueue queue = new EngineQueue();
        queue.onText("a");
        queue.onFinished(FinishReason.STOP, 4, 1);
        FlushRecorder out = new FlushRecorder(() -> { });

        write(queue, true, CompletionResponder.Flushing.COALESCED, out);

        String head = "{\"id\":\"chatcmpl-r1\",\"object\":\"chat.completion.chunk\",\"created\":7,\"model\":\"m\",";
        assertEquals(List.of(event(head + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                + "\"content\":\"a\"},\"finish_reason\":null}],\"usage\":null}")
            + event(head + "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":null}")
            + event(head + "\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":1,"
                + "\"total_tokens\":5}}") + "data: [DONE]\n\n"), out.flushes);
    }

    @Test
    void shouldFlushEveryEventWhenAskedToAsAnEngineDoes() throws Exception {
        EngineQueue queue = new EngineQueue();
        queue.onText("a");
        queue.onText(" b");
        queue.onFinished(FinishReason.STOP, 4, 2);
        FlushRecorder out = new FlushRecorder(() -> { });

        write(queue, false, CompletionResponder.Flushing.PER_EVENT, out);

        assertEquals(List.of(event(chunk("{\"role\":\"assistant\",\"content\":\"a\"}", "null")),
            event(chunk("{\"content\":\" b\"}", "null")),
            event(chunk("{}", "\"stop\"")) + "data: [DONE]\n\n"), out.flushes);
    }

    private static CompletionResponder.Outcome write(EngineQueue queue, boolean includeUsage,
                                                     CompletionResponder.Flushing flushing, FlushRecorder out)
        throws IOException, InterruptedException {
        return CompletionResponder.events(out, queue.take(), HEADER, includeUsage, queue, CompletionResponder.NONE,
            ERRORS, flushing);
    }

    /** The bytes of a chat stream with these token texts, then a stop, then [DONE]. */
    private static String expected(String first, String... rest) {
        StringBuilder all = new StringBuilder(event(chunk("{\"role\":\"assistant\",\"content\":\"" + first + "\"}",
            "null")));
        for (String text : rest) {
            all.append(event(chunk("{\"content\":\"" + text + "\"}", "null")));
        }
        return all.append(event(chunk("{}", "\"stop\""))).append("data: [DONE]\n\n").toString();
    }

    private static String chunk(String delta, String finishReason) {
        return "{\"id\":\"chatcmpl-r1\",\"object\":\"chat.completion.chunk\",\"created\":7,\"model\":\"m\","
            + "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + finishReason + "}]}";
    }

    private static String event(String json) {
        return "data: " + json + "\n\n";
    }

    /** Records what each flush sends; runs an action after each, as a client's side of the stream would see it. */
    private static final class FlushRecorder extends ByteArrayOutputStream {
        final List<String> flushes = new ArrayList<>();
        private final Runnable afterFlush;

        FlushRecorder(Runnable afterFlush) {
            this.afterFlush = afterFlush;
        }

        @Override
        public void flush() throws IOException {
            if (size() == 0) {
                return;
            }
            flushes.add(toString(StandardCharsets.UTF_8));
            reset();
            afterFlush.run();
        }
    }
}
