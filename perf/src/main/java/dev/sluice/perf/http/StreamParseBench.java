package dev.sluice.perf.http;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * A remote engine's answer as the reader thread decodes it, without the socket: one vLLM-style 16-token
 * {@code /v1/completions} event stream (an opening chunk with empty text, 16 text chunks, the finish chunk, the usage
 * chunk, {@code data: [DONE]}), each event in its own piece as vLLM writes them, fed through a fresh
 * {@code SseParser} and {@code CompletionStreamAdapter} per stream, as {@code RemoteExchange} does per request. One
 * call is one whole stream; {@code -prof gc} gives the bytes allocated per stream. The two classes are internal to
 * the transport's {@code engine.http} package, so they are reached through method handles (the benchmark jar runs on
 * the class path); a handle in a static final field is inlined like a direct call.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StreamParseBench {
    private static final String PACKAGE = "dev.sluice.transport.engine.http.";
    private static final MethodHandle NEW_ADAPTER;
    private static final MethodHandle NEW_PARSER;
    private static final MethodHandle FEED;
    private static final MethodHandle DONE;
    private static final MethodHandle COMPLETION_TOKENS;
    private static final int MAX_LINE_BYTES = 1 << 20;
    private static final String[] TOKENS = {" The", " quick", " brown", " fox", " jumps", " over", " the", " lazy",
        " dog", " near", " the", " café", ",", " then", " it", " sleeps"};
    private static final String HEAD = "{\"id\":\"cmpl-8c2f0e4b7d1a4c3e9f6b5a2d1e0c9b8a\","
        + "\"object\":\"text_completion\",\"created\":1764765000,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",";

    static {
        try {
            Class<?> adapter = Class.forName(PACKAGE + "CompletionStreamAdapter");
            Class<?> parser = Class.forName(PACKAGE + "SseParser");
            Class<?> handler = Class.forName(PACKAGE + "SseParser$Handler");
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(parser, MethodHandles.lookup());
            NEW_ADAPTER = lookup.findConstructor(adapter, MethodType.methodType(void.class, Consumer.class))
                .asType(MethodType.methodType(Object.class, Consumer.class));
            NEW_PARSER = lookup.findConstructor(parser, MethodType.methodType(void.class, handler, int.class))
                .asType(MethodType.methodType(Object.class, Object.class, int.class));
            FEED = lookup.findVirtual(parser, "feed",
                    MethodType.methodType(boolean.class, byte[].class, int.class, int.class))
                .asType(MethodType.methodType(boolean.class, Object.class, byte[].class, int.class, int.class));
            DONE = lookup.findVirtual(adapter, "done", MethodType.methodType(boolean.class))
                .asType(MethodType.methodType(boolean.class, Object.class));
            COMPLETION_TOKENS = lookup.findVirtual(adapter, "completionTokens", MethodType.methodType(long.class))
                .asType(MethodType.methodType(long.class, Object.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The stream's events, one piece each, as they come off the socket. */
    private final byte[][] pieces = pieces();
    private long chars;
    private final Consumer<String> text = delta -> chars += delta.length();

    static byte[][] pieces() {
        byte[][] pieces = new byte[TOKENS.length + 4][];
        int at = 0;
        pieces[at++] = event(choice("", "null"));
        for (String token : TOKENS) {
            pieces[at++] = event(choice(token, "null"));
        }
        pieces[at++] = event(choice("", "\"length\""));
        pieces[at++] = event(HEAD + "\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"total_tokens\":28,"
            + "\"completion_tokens\":16,\"prompt_tokens_details\":null}}");
        pieces[at] = "data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8);
        return pieces;
    }

    private static String choice(String text, String finishReason) {
        return HEAD + "\"choices\":[{\"index\":0,\"text\":\"" + text + "\",\"logprobs\":null,\"finish_reason\":"
            + finishReason + ",\"stop_reason\":null}],\"usage\":null}";
    }

    private static byte[] event(String json) {
        return ("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public long decodeStream() throws Throwable {
        Object adapter = (Object) NEW_ADAPTER.invokeExact(text);
        Object parser = (Object) NEW_PARSER.invokeExact(adapter, MAX_LINE_BYTES);
        for (byte[] piece : pieces) {
            boolean fed = (boolean) FEED.invokeExact(parser, piece, 0, piece.length);
            if (!fed) {
                throw new IllegalStateException("a line over the limit");
            }
        }
        long completionTokens = (long) COMPLETION_TOKENS.invokeExact(adapter);
        if (!(boolean) DONE.invokeExact(adapter) || completionTokens != TOKENS.length) {
            throw new IllegalStateException("the stream did not end as sent");
        }
        return completionTokens + chars;
    }
}
