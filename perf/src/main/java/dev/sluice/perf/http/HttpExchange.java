package dev.sluice.perf.http;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection that sends a fixed request and reads each response whole (Content-Length,
 * chunked, or to the end of the connection), the SSE events of a stream included. Not thread-safe: one per sender.
 */
final class HttpExchange implements AutoCloseable {
    private final InetSocketAddress address;
    private final byte[] request;
    private final byte[] line = new byte[8192];
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    HttpExchange(InetSocketAddress address, byte[] request) {
        this.address = address;
        this.request = request;
    }

    /** Sends the request and reads the response; returns its status. The connection is reopened as needed. */
    int send() throws IOException {
        if (socket == null) {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(address, 5_000);
            socket.setSoTimeout(30_000);
            in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
            out = socket.getOutputStream();
        }
        try {
            out.write(request);
            out.flush();
            return readResponse();
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private int readResponse() throws IOException {
        String status = readLine();
        if (!status.startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP response: " + status);
        }
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        for (String header = readLine(); !header.isEmpty(); header = readLine()) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        if (chunked) {
            for (long size = Long.parseLong(readLine().split(";")[0].trim(), 16); size > 0;
                 size = Long.parseLong(readLine().split(";")[0].trim(), 16)) {
                skip(size);
                readLine();
            }
            while (!readLine().isEmpty()) {
                // trailers
            }
        } else if (length >= 0) {
            skip(length);
        } else {
            close = true;
            while (in.read(line) >= 0) {
                // read to the end of the connection
            }
        }
        if (close) {
            close();
        }
        return code;
    }

    private void skip(long count) throws IOException {
        long left = count;
        while (left > 0) {
            int n = in.read(line, 0, (int) Math.min(line.length, left));
            if (n < 0) {
                throw new EOFException("connection closed with " + left + " body bytes unread");
            }
            left -= n;
        }
    }

    private String readLine() throws IOException {
        int n = 0;
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new EOFException("connection closed mid-response");
            }
            if (n < line.length) {
                line[n++] = (byte) b;
            }
        }
        if (n > 0 && line[n - 1] == '\r') {
            n--;
        }
        return new String(line, 0, n, StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            socket = null;
        }
    }
}
