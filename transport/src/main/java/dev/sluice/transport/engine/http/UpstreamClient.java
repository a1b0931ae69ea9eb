package dev.sluice.transport.engine.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The HTTP/1.1 client of one engine: completions POSTed on keep-alive connections from a {@link ConnectionPool}
 * (a new one, within the connect timeout, when none is idle), {@code GET /v1/models} on a connection of its own.
 * Sockets send without Nagle's delay (each request is one write, but the engine's delayed ACK would otherwise hold
 * an answer's small segments) and read with a timeout; {@code https} URLs get TLS with host name verification. A
 * pooled connection that fails before the engine sent any byte of its answer (the engine closed it while it was
 * idle) is replaced by a new one and the request sent again, once. Thread-safe: each call works on the caller's
 * connection.
 */
final class UpstreamClient implements AutoCloseable {
    /** Idle keep-alive connections kept; a request beyond them opens (and then closes) its own. */
    static final int MAX_IDLE_CONNECTIONS = 128;
    private static final byte[] CONTENT_LENGTH = ascii("\r\nContent-Length: ");
    private static final byte[] END_OF_HEAD = ascii("\r\n\r\n");
    /** Room for the Content-Length value and the head's end. */
    private static final int LENGTH_ROOM = CONTENT_LENGTH.length + 20 + END_OF_HEAD.length;

    /** Writes a request's body. */
    @FunctionalInterface
    interface BodyWriter {
        void write(OutputStream body) throws IOException;
    }

    private final String host;
    private final int port;
    private final boolean tls;
    private final int connectMillis;
    private final int readMillis;
    /** The head of a completion request up to the value of its {@code x-request-id}. */
    private final byte[] completionHead;
    private final byte[] modelsHead;
    private final ConnectionPool pool = new ConnectionPool(MAX_IDLE_CONNECTIONS);

    /**
     * A client of the engine at {@code settings}; connects with its connect timeout and reads completions with
     * {@code readTimeout}. Opens no connection yet.
     */
    UpstreamClient(HttpEngineSettings settings, Duration readTimeout) {
        URI uri = settings.completionsUri();
        this.tls = uri.getScheme().equalsIgnoreCase("https");
        String uriHost = uri.getHost();
        this.host = uriHost.startsWith("[") ? uriHost.substring(1, uriHost.length() - 1) : uriHost;
        this.port = uri.getPort() >= 0 ? uri.getPort() : tls ? 443 : 80;
        this.connectMillis = millis(settings.connectTimeout());
        this.readMillis = millis(readTimeout);
        String authority = uri.getRawAuthority();
        this.completionHead = ascii("POST " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + authority
            + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nx-request-id: ");
        this.modelsHead = ascii("GET " + settings.modelsUri().getRawPath() + " HTTP/1.1\r\nHost: " + authority
            + "\r\nAccept: application/json\r\nConnection: close\r\n\r\n");
    }

    /**
     * POSTs a completion with {@code x-request-id: requestId} and reads the head of the answer.
     *
     * @return the connection, positioned at the answer's body; give it back with {@link #release}.
     * @throws IOException if it could not connect, send or read the head (the connection is closed then).
     */
    UpstreamConnection post(String requestId, BodyWriter body) throws IOException {
        UpstreamConnection connection = pool.poll();
        if (connection == null) {
            connection = open(readMillis);
        }
        try {
            RequestBuffer request = connection.request().begin(completionHead.length + requestId.length()
                + LENGTH_ROOM);
            body.write(request);
            request.prepend(END_OF_HEAD).prepend(request.bodyLength()).prepend(CONTENT_LENGTH).prepend(requestId)
                .prepend(completionHead);
            exchange(connection);
            return connection;
        } catch (IOException e) {
            connection.close();
            if (!connection.reused() || connection.received() > 0 || e instanceof UpstreamProtocolException
                || e instanceof SocketTimeoutException || Thread.currentThread().isInterrupted()) {
                throw e;
            }
            return retry(connection);
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** Sends the request of the stale connection {@code stale} again, on a new connection. */
    private UpstreamConnection retry(UpstreamConnection stale) throws IOException {
        UpstreamConnection fresh = open(readMillis);
        try {
            fresh.takeRequest(stale);
            exchange(fresh);
            return fresh;
        } catch (IOException | RuntimeException e) {
            fresh.close();
            throw e;
        }
    }

    private static void exchange(UpstreamConnection connection) throws IOException {
        connection.send();
        connection.readHead(false);
    }

    /**
     * {@code GET /v1/models} on a new connection (with {@code Connection: close}) that reads with the connect
     * timeout, and its answer's head.
     *
     * @return the connection, positioned at the answer's body; close it after reading.
     */
    UpstreamConnection getModels() throws IOException {
        UpstreamConnection connection = open(connectMillis);
        try {
            connection.request().begin(modelsHead.length).prepend(modelsHead);
            exchange(connection);
            return connection;
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** Gives back a connection from {@link #post}: kept when its answer was read to its end, else closed. */
    void release(UpstreamConnection connection) {
        pool.release(connection);
    }

    /** Idle connections kept now. */
    int idleConnections() {
        return pool.idle();
    }

    /** A new connection, connected within the connect timeout, reading with {@code readTimeout} ms. */
    private UpstreamConnection open(int readTimeout) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), connectMillis);
            if (tls) {
                // The handshake is part of connecting.
                socket.setSoTimeout(connectMillis);
                SSLSocket secure = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault()).createSocket(socket,
                    host, port, true);
                SSLParameters parameters = secure.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                secure.setSSLParameters(parameters);
                secure.startHandshake();
                socket = secure;
            }
            socket.setSoTimeout(readTimeout);
            return new UpstreamConnection(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Closes the idle connections; those in use are closed when given back. */
    @Override
    public void close() {
        pool.close();
    }

    private static int millis(Duration duration) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, duration.toMillis()));
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
