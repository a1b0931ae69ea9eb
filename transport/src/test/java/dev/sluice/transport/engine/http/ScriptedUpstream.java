package dev.sluice.transport.engine.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An engine on loopback that answers each connection by a script, byte for byte, for tests of the client's
 * framing, pooling and retries. It records every request it read, whole. Close it to stop. Thread-safe.
 */
final class ScriptedUpstream implements AutoCloseable {
    /** What one connection (the {@code connection}-th, from 0) does: read requests, write answers, close or not. */
    @FunctionalInterface
    interface Script {
        void run(int connection, Peer peer) throws IOException;
    }

    private final ServerSocket server;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    ScriptedUpstream(Script script) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                Socket socket;
                try {
                    socket = server.accept();
                } catch (IOException e) {
                    return;
                }
                int index = connections.getAndIncrement();
                Thread.ofVirtual().start(() -> {
                    try (socket) {
                        script.run(index, new Peer(socket));
                    } catch (IOException e) {
                        // The client went; the script ends with it.
                    }
                });
            }
        });
    }

    /** The engine's end of one connection. */
    final class Peer {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private String last;

        Peer(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        /** Reads one request (its head, then a body of its Content-Length) and records it; false at the end. */
        boolean readRequest() throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                head.write(b);
                String text = head.toString(StandardCharsets.ISO_8859_1);
                if (text.endsWith("\r\n\r\n")) {
                    int length = 0;
                    for (String line : text.split("\r\n")) {
                        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                            length = Integer.parseInt(line.substring(15).strip());
                        }
                    }
                    last = text + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
                    requests.add(last);
                    return true;
                }
            }
            return false;
        }

        /** The next byte the client sent, or -1 once it closed. */
        int read() throws IOException {
            return in.read();
        }

        /** The value of the last request's {@code x-request-id}. */
        String requestId() {
            int from = last.indexOf("x-request-id: ") + 14;
            return last.substring(from, last.indexOf("\r\n", from));
        }

        /** Writes {@code text} and flushes it. */
        void write(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        /** Closes the connection. */
        void close() throws IOException {
            socket.close();
        }
    }

    /** The base URL to give {@code HttpEngineSettings}. */
    String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    int connections() {
        return connections.get();
    }

    /** Every request read so far, head and body, in order. */
    List<String> requests() {
        return requests;
    }

    /** A chunked event-stream answer of {@code events}, each in a chunk of its own, and its end. */
    static String chunkedEvents(String... events) {
        StringBuilder answer = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n");
        for (String event : events) {
            String chunk = "data: " + event + "\n\n";
            answer.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
        }
        return answer.append("0\r\n\r\n").toString();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
