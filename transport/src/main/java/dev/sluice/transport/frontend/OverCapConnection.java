package dev.sluice.transport.frontend;

import dev.sluice.transport.openai.OpenAiException;
import dev.sluice.transport.openai.OpenAiJson;
import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.webserver.spi.ServerConnection;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A connection over the connection limit: it reads the request's head (within the header timeout, as any), answers
 * {@code 503 too_many_connections} with {@code Connection: close} and {@code Retry-After: 1}, and ends, whatever the
 * request was. Reading the head first lets the client read the answer: closing with its request unread would reset
 * the connection under the answer. Used from the connection's thread only.
 */
final class OverCapConnection implements ServerConnection {
    private final GuardedContext ctx;
    private final int maxHeadBytes;

    OverCapConnection(GuardedContext ctx, int maxHeadBytes) {
        this.ctx = ctx;
        this.maxHeadBytes = maxHeadBytes;
    }

    /** The answer, head and body. */
    static byte[] answer() {
        byte[] body = OpenAiJson.error(new OpenAiException(503, "The server holds as many connections as it "
            + "serves; retry later", null, "too_many_connections"));
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 160);
        out.writeBytes(("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
            + "Connection: close\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }

    @Override
    public void handle(Limit limit) {
        DataReader reader = ctx.headReader();
        int read = 0;
        try {
            while (read <= maxHeadBytes) {
                String line = reader.readLine();
                read += line.length() + 2;
                if (line.isEmpty()) {
                    break;
                }
            }
        } catch (DataReader.IncorrectNewLineException e) {
            // Not HTTP as it should be: answered all the same.
        } catch (DataReader.InsufficientDataAvailableException e) {
            return; // the client left
        }
        ctx.onAnswer();
        ctx.dataWriter().writeNow(BufferData.create(answer()));
    }

    @Override
    public Duration idleTime() {
        return Duration.ZERO;
    }

    @Override
    public void close(boolean interrupt) {
        ctx.cut();
    }
}
