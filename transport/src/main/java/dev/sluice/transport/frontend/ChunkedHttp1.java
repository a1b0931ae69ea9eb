package dev.sluice.transport.frontend;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * Helidon's HTTP/1.1 connections, each reading its socket through a {@link ChunkedBodyReader}: chunked request bodies
 * with extensions are accepted, malformed ones answered 400 at once. Helidon offers no hook into its chunk decoding,
 * so this selector, registered on the listener ahead of the one Helidon finds itself (selectors given to the listener
 * are asked first), hands Helidon's own connection a context whose reader is ours; everything else is Helidon's.
 * Stateless; thread-safe.
 */
final class ChunkedHttp1 implements ServerConnectionSelector {
    private final ServerConnectionSelector http1;

    private ChunkedHttp1(Http1Config config) {
        this.http1 = Http1ConnectionSelector.builder().config(config).build();
    }

    /** HTTP/1.1 with the given configuration (give it the one the listener's HTTP/1 protocol has, if any). */
    static ServerConnectionSelector selector(Http1Config config) {
        return new ChunkedHttp1(config);
    }

    /** HTTP/1.1 with Helidon's default configuration. */
    static ServerConnectionSelector selector() {
        return selector(Http1Config.create());
    }

    @Override
    public int bytesToIdentifyConnection() {
        return http1.bytesToIdentifyConnection();
    }

    @Override
    public Support supports(BufferData data) {
        return http1.supports(data);
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return http1.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        return http1.connection(new Context(ctx, new ChunkedBodyReader(ctx.dataReader())));
    }

    /** The connection's context with our reader. */
    private record Context(ConnectionContext ctx, DataReader reader) implements ConnectionContext {
        @Override
        public DataReader dataReader() {
            return reader;
        }

        @Override
        public ListenerContext listenerContext() {
            return ctx.listenerContext();
        }

        @Override
        public ExecutorService executor() {
            return ctx.executor();
        }

        @Override
        public DataWriter dataWriter() {
            return ctx.dataWriter();
        }

        @Override
        public Router router() {
            return ctx.router();
        }

        @Override
        public Optional<ProxyProtocolData> proxyProtocolData() {
            return ctx.proxyProtocolData();
        }

        @Override
        public HelidonSocket serverSocket() {
            return ctx.serverSocket();
        }

        @Override
        public PeerInfo remotePeer() {
            return ctx.remotePeer();
        }

        @Override
        public PeerInfo localPeer() {
            return ctx.localPeer();
        }

        @Override
        public boolean isSecure() {
            return ctx.isSecure();
        }

        @Override
        public String socketId() {
            return ctx.socketId();
        }

        @Override
        public String childSocketId() {
            return ctx.childSocketId();
        }
    }
}
