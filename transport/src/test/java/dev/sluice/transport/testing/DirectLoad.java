package dev.sluice.transport.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Another client of an OpenAI-compatible engine, not the router: streaming completions sent straight to the
 * engine and held open (their bodies are not read), so the engine carries load the router did not book.
 * {@link #close} hangs them all up. Not thread-safe.
 */
public final class DirectLoad implements AutoCloseable {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<CompletableFuture<HttpResponse<InputStream>>> streams = new ArrayList<>();

    /** Sends {@code requests} streaming completions of {@code maxTokens} tokens to {@code baseUrl}'s engine. */
    public static DirectLoad start(String baseUrl, String model, int requests, int maxTokens) {
        DirectLoad load = new DirectLoad();
        for (int i = 0; i < requests; i++) {
            String prompt = ("weir " + i + " ").repeat(24).strip();
            String body = "{\"model\":\"" + model + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":" + maxTokens
                + ",\"stream\":true}";
            HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/v1/completions"))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
            load.streams.add(load.client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()));
        }
        return load;
    }

    @Override
    public void close() {
        for (CompletableFuture<HttpResponse<InputStream>> stream : streams) {
            if (!stream.cancel(true) && !stream.isCompletedExceptionally()) {
                try {
                    stream.join().body().close();
                } catch (IOException e) {
                    // Hanging up is all that is wanted.
                }
            }
        }
        client.shutdownNow();
    }
}
