package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.SluiceProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code serve} under a low file-descriptor limit ({@code ulimit -n 400}) and one client opening connection after
 * connection: the server refuses the ones over its default connection limit (derived from the descriptor limit)
 * with a 503 instead of running out of descriptors, whose {@code EMFILE} would end Helidon's listener for good; once
 * the client closes them, the port serves again.
 */
class ServeDescriptorLimitSystemTest {
    private static final Pattern READY = Pattern.compile("on http://127\\.0\\.0\\.1:(\\d+)");
    private static final byte[] LIVE = "GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII);

    @Test
    void shouldRefuseConnectionsPastTheDescriptorsAndServeAgainOnceTheyClose() throws Exception {
        try (SluiceProcess serve = SluiceProcess.start(READY, List.of("serve", "--http-port", "0", "--no-journal",
            "--sim-workers", "1"), 400)) {
            int port = Integer.parseInt(serve.ready());
            List<Socket> held = new ArrayList<>();
            String refusal = null;
            try {
                // 500 connections would need more descriptors than the server has: it must refuse before.
                for (int i = 0; i < 500 && refusal == null; i++) {
                    Socket socket;
                    try {
                        socket = new Socket(InetAddress.getLoopbackAddress(), port);
                    } catch (IOException e) {
                        refusal = "connect failed: " + e;
                        break;
                    }
                    held.add(socket);
                    socket.setSoTimeout(5_000);
                    socket.getOutputStream().write(LIVE);
                    String head = head(socket.getInputStream());
                    if (!head.startsWith("HTTP/1.1 200")) {
                        refusal = head;
                    }
                }
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
            assertTrue(refusal != null && refusal.startsWith("HTTP/1.1 503"), "expected a 503 past the limit, got "
                + refusal + "; output:\n" + serve.output());
            Await.until("the port serving again once the connections closed", () -> served(port));
            assertTrue(!serve.output().contains("Too many open files"), serve.output());
        }
    }

    private static boolean served(int port) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(LIVE);
            return head(socket.getInputStream()).startsWith("HTTP/1.1 200");
        } catch (IOException e) {
            return false;
        }
    }

    /** The status line, or what came before the server closed; a read timeout counts as no answer. */
    private static String head(InputStream in) {
        StringBuilder line = new StringBuilder();
        try {
            int b;
            while ((b = in.read()) >= 0 && b != '\n') {
                line.append((char) b);
            }
            // Read the rest of a 503 so the close after it is the server's.
        } catch (IOException e) {
            return line.isEmpty() ? "no answer: " + e : line.toString();
        }
        return line.toString();
    }
}
