package dev.sluice.perf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Netty floor proxy relays what the engine answers, unchanged, over kept-alive connections: a body of known
 * length, and a stream written in pieces (chunked), whose events reach the client whole and in order.
 */
class NettyProxyTest {
    private static final String ANSWER = "{\"choices\":[{\"message\":{\"content\":\"tide basin mill\"}}]}";
    private static final String EVENTS = "data: {\"n\":1}\n\ndata: {\"n\":2}\n\ndata: [DONE]\n\n";

    private HttpServer engine;
    private EventLoopGroup loops;
    private URI proxy;

    @BeforeEach
    void setUp() throws IOException, InterruptedException {
        engine = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        engine.createContext("/v1/chat/completions", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean stream = body.contains("\"stream\":true");
            exchange.getResponseHeaders().add("Content-Type", stream ? "text/event-stream" : "application/json");
            if (stream) {
                exchange.sendResponseHeaders(200, 0);
                try (OutputStream out = exchange.getResponseBody()) {
                    for (String event : EVENTS.split("(?<=\n\n)")) {
                        out.write(event.getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                }
            } else {
                byte[] answer = (ANSWER + body.length()).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        });
        engine.start();
        loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Channel listening = NettyProxy.start(loops, 0, URI.create("http://127.0.0.1:" + engine.getAddress().getPort()));
        proxy = URI.create("http://127.0.0.1:" + ((InetSocketAddress) listening.localAddress()).getPort()
            + "/v1/chat/completions");
    }

    @AfterEach
    void tearDown() {
        loops.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        engine.stop(0);
    }

    @Test
    void shouldRelayBodiesAndStreamsUnchangedOverKeptAliveConnections() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            for (int i = 0; i < 3; i++) {
                String request = "{\"stream\":false,\"n\":" + i + "}";
                HttpResponse<String> whole = client.send(post(request), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, whole.statusCode());
                assertEquals(ANSWER + request.length(), whole.body());
                assertEquals("application/json", whole.headers().firstValue("content-type").orElseThrow());

                HttpResponse<String> stream = client.send(post("{\"stream\":true}"),
                    HttpResponse.BodyHandlers.ofString());
                assertEquals(200, stream.statusCode());
                assertEquals(EVENTS, stream.body());
                assertEquals("text/event-stream", stream.headers().firstValue("content-type").orElseThrow());
            }
        }
    }

    private HttpRequest post(String body) {
        return HttpRequest.newBuilder(proxy).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
