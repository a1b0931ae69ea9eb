package dev.sluice.perf.http;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.WebServer;
import java.nio.charset.StandardCharsets;

/**
 * The floor of {@code perf/proxy-cpu.sh}: Helidon's HTTP/1.1 web server alone, with the frontend's server options
 * (TCP_NODELAY, no discovered protocols), answering {@code POST /v1/chat/completions} with a fixed chat-completion
 * body (or a fixed event stream of 16 deltas when the request asks for a stream). No upstream, no JSON parse: its
 * CPU per request is what the server costs before a proxy does anything.
 *
 * <p>Threads: Helidon's, one virtual thread per connection; the handler keeps no state. Usage:
 * {@code BareServer PORT}; runs until killed.
 */
public final class BareServer {
    static final byte[] ANSWER = ("{\"id\":\"chatcmpl-bare\",\"object\":\"chat.completion\",\"created\":1,"
        + "\"model\":\"sluice-sim\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
        + "\"t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15\"},\"finish_reason\":\"length\"}],"
        + "\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":16,\"total_tokens\":18}}")
        .getBytes(StandardCharsets.UTF_8);
    private static final byte[] STREAM = stream();

    private BareServer() {
    }

    private static byte[] stream() {
        StringBuilder sse = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            sse.append("data: {\"id\":\"chatcmpl-bare\",\"object\":\"chat.completion.chunk\",\"created\":1,")
                .append("\"model\":\"sluice-sim\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" t")
                .append(i).append("\"},\"finish_reason\":null}]}\n\n");
        }
        sse.append("data: [DONE]\n\n");
        return sse.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static void main(String[] args) {
        int port = FloorArgs.parseOrExit("BareServer", args, false).port();
        WebServer.builder()
            .host("127.0.0.1")
            .port(port)
            .shutdownHook(false)
            .connectionOptions(options -> options.tcpNoDelay(true))
            .routing(routing -> routing.post("/v1/chat/completions", (req, res) -> {
                String body = req.content().as(String.class);
                if (body.contains("\"stream\":true")) {
                    res.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
                    res.send(STREAM);
                } else {
                    res.header(HeaderNames.CONTENT_TYPE, "application/json");
                    res.send(ANSWER);
                }
            }))
            .build()
            .start();
        System.out.println("bare server on port " + port);
    }
}
