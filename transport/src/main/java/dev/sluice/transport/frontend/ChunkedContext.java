package dev.sluice.transport.frontend;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * A connection's context whose reader is a {@link ChunkedBodyReader}: given to Helidon's HTTP/1.1 connection, it makes
 * chunked request bodies with extensions acceptable and malformed ones a 400 at once. Helidon offers no hook into its
 * chunk decoding; the reader it reads the socket through is the only way in. {@link ConnectionGuard} hands every
 * connection it serves one of these. Everything but the reader is the wrapped context's.
 */
record ChunkedContext(ConnectionContext ctx, DataReader reader) implements ConnectionContext {
    /** {@code ctx} with its reader read through a new {@link ChunkedBodyReader}. */
    static ChunkedContext of(ConnectionContext ctx) {
        return new ChunkedContext(ctx, new ChunkedBodyReader(ctx.dataReader()));
    }

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
