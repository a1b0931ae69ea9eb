package dev.sluice.perf.http;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;

/**
 * The floor of a Java proxy on sluice's stack, for {@code perf/proxy-cpu.sh}: Helidon's web server (the frontend's
 * server options) whose {@code POST /v1/chat/completions} handler forwards the client's body as it is to the
 * engine's, through a pooled Helidon {@link Http1Client} configured as {@code HttpEngine}'s, and relays the answer:
 * one body for a non-streaming request (the engine is asked exactly what the client asked), the bytes as they come
 * for a stream. No admission, no journal, no JSON parse.
 *
 * <p>Threads: Helidon's, one virtual thread per connection, which also makes the upstream call; the client is
 * thread-safe. Usage: {@code BareProxy PORT ENGINE_URL}; runs until killed.
 */
public final class BareProxy {
    private BareProxy() {
    }

    public static void main(String[] args) {
        FloorArgs parsed = FloorArgs.parseOrExit("BareProxy", args, true);
        int port = parsed.port();
        String target = parsed.engine() + "/v1/chat/completions";
        Http1Client client = Http1Client.builder()
            .socketOptions(options -> options.tcpNoDelay(true))
            .connectTimeout(Duration.ofSeconds(5))
            .readTimeout(Duration.ofSeconds(61))
            .followRedirects(false)
            .keepAlive(true)
            .shareConnectionCache(false)
            .connectionCacheSize(128)
            .sendExpectContinue(false)
            .servicesDiscoverServices(false)
            .build();
        WebServer.builder()
            .host("127.0.0.1")
            .port(port)
            .shutdownHook(false)
            .connectionOptions(options -> options.tcpNoDelay(true))
            .routing(routing -> routing.post("/v1/chat/completions", (req, res) -> {
                byte[] body = req.content().as(byte[].class);
                try (Http1ClientResponse answer = client.post().uri(target)
                    .header(HeaderNames.CONTENT_TYPE, "application/json").submit(body);
                    InputStream in = answer.inputStream()) {
                    res.status(answer.status());
                    answer.headers().first(HeaderNames.CONTENT_TYPE)
                        .ifPresent(type -> res.header(HeaderNames.CONTENT_TYPE, type));
                    if (answer.headers().contains(HeaderNames.CONTENT_LENGTH)) {
                        res.send(in.readAllBytes());
                    } else {
                        try (OutputStream out = res.outputStream()) {
                            byte[] buffer = new byte[8192];
                            int n;
                            while ((n = in.read(buffer)) >= 0) {
                                out.write(buffer, 0, n);
                                out.flush();
                            }
                        }
                    }
                }
            }))
            .build()
            .start();
        System.out.println("bare proxy on port " + port + " to " + target);
    }
}
