package dev.sluice.transport.engine.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The blocking HTTP/1.1 client of one engine's {@code GET /v1/models} (the model check and the health probe, on
 * their callers' threads; completions run on the event loops, {@link RemoteExchange}): each request on a new
 * connection with {@code Connection: close}, connected and read with the connect timeout. Sockets send without
 * Nagle's delay; {@code https} URLs get TLS with host name verification. Thread-safe: each call works on a
 * connection of its own.
 */
final class UpstreamClient {
    private final String host;
    private final int port;
    private final boolean tls;
    private final int connectMillis;
    private final byte[] modelsHead;

    /** A client of the engine at {@code settings}. Opens no connection yet. */
    UpstreamClient(HttpEngineSettings settings) {
        URI uri = settings.completionsUri();
        this.tls = uri.getScheme().equalsIgnoreCase("https");
        String uriHost = uri.getHost();
        this.host = uriHost.startsWith("[") ? uriHost.substring(1, uriHost.length() - 1) : uriHost;
        this.port = uri.getPort() >= 0 ? uri.getPort() : tls ? 443 : 80;
        this.connectMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, settings.connectTimeout().toMillis()));
        this.modelsHead = ("GET " + settings.modelsUri().getRawPath() + " HTTP/1.1\r\nHost: " + uri.getRawAuthority()
            + "\r\nAccept: application/json\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * {@code GET /v1/models} on a new connection (with {@code Connection: close}) that reads with the connect
     * timeout, and its answer's head.
     *
     * @return the connection, positioned at the answer's body; close it after reading.
     */
    UpstreamConnection getModels() throws IOException {
        UpstreamConnection connection = open();
        try {
            connection.send(modelsHead);
            connection.readHead();
            return connection;
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** A new connection, connected within the connect timeout, reading with it too. */
    private UpstreamConnection open() throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), connectMillis);
            if (tls) {
                socket.setSoTimeout(connectMillis);
                SSLSocket secure = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault()).createSocket(socket,
                    host, port, true);
                SSLParameters parameters = secure.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                secure.setSSLParameters(parameters);
                secure.startHandshake();
                socket = secure;
            }
            socket.setSoTimeout(connectMillis);
            return new UpstreamConnection(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }
}
