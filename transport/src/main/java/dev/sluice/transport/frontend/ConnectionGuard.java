package dev.sluice.transport.frontend;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.HttpLogConfig;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.http1.Http1LoggingConnectionListener;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * What Helidon 4.5 does not do for its HTTP/1 connections, done in front of its HTTP/1 connection selector: the
 * connection limit with a 503 answer ({@code maxTcpConnections} alone leaves connections over it waiting unanswered
 * in the accept backlog), header, body and idle read timeouts (Helidon's {@code readTimeout} socket option is never
 * applied to accepted sockets, and its idle-connection check only interrupts a connection waiting for a request
 * line, once a second at best), and HTTP/1.0 requests ({@link Http10Requests}). Each connection's bytes pass through
 * a {@link GuardedContext}; one daemon thread ({@code sluice-connection-guard}) looks at every connection a few times
 * per shortest timeout and closes those that wait for bytes past their deadline. Thread-safe; close stops the thread.
 */
final class ConnectionGuard implements ServerConnectionSelector, AutoCloseable {
    private final ConnectionLimits limits;
    private final Http1ConnectionSelector http1;
    private final Http1Config http1Config;
    private final Set<GuardedContext> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger served = new AtomicInteger();
    private final Thread watchdog;
    private volatile boolean closed;

    ConnectionGuard(ConnectionLimits limits) {
        this.limits = limits;
        HttpLogConfig log = Http1Config.create().log();
        // One listener each way: Helidon's composite of several forwards no event (4.5.0), so the guard's passes
        // each on to the logging listener Helidon installs when none is given.
        this.http1Config = Http1Config.builder()
            .addReceiveListener(new Phases(true, Http1LoggingConnectionListener.create(log, "recv")))
            .addSendListener(new Phases(false, Http1LoggingConnectionListener.create(log, "send")))
            .build();
        this.http1 = Http1ConnectionSelector.builder().config(http1Config).build();
        long sweep = sweepNanos(limits);
        this.watchdog = Thread.ofPlatform().daemon().name("sluice-connection-guard").start(() -> watch(sweep));
    }

    /** A tenth of the shortest timeout, between 5 ms and 1 s. */
    static long sweepNanos(ConnectionLimits limits) {
        Duration shortest = limits.headerTimeout();
        shortest = shortest.compareTo(limits.bodyTimeout()) < 0 ? shortest : limits.bodyTimeout();
        shortest = shortest.compareTo(limits.idleTimeout()) < 0 ? shortest : limits.idleTimeout();
        return Math.clamp(shortest.toNanos() / 10, 5_000_000L, 1_000_000_000L);
    }

    /** What Helidon's {@code maxTcpConnections} is set to: the limit, and the connections only answered 503. */
    int acceptLimit() {
        return limits.maxConnections() + ConnectionLimits.OVER_CAP_SLOTS;
    }

    private void watch(long sweepNanos) {
        while (!closed) {
            LockSupport.parkNanos(sweepNanos);
            long now = System.nanoTime();
            for (GuardedContext connection : connections) {
                if (connection.overdue(now)) {
                    // cut() never throws: the one thread that enforces every deadline must not die of one socket.
                    connection.cut();
                }
            }
        }
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        GuardedContext guarded = new GuardedContext(ctx, limits, http1Config.maxPrologueLength()
            + http1Config.maxHeadersSize(), System.nanoTime());
        boolean over = served.incrementAndGet() > limits.maxConnections();
        connections.add(guarded);
        try {
            ServerConnection connection = over ? new OverCapConnection(guarded, http1Config.maxPrologueLength()
                + http1Config.maxHeadersSize()) : http1.connection(guarded);
            return new Tracked(connection, guarded);
        } catch (RuntimeException | Error e) {
            release(guarded);
            throw e;
        }
    }

    private void release(GuardedContext guarded) {
        connections.remove(guarded);
        served.decrementAndGet();
    }

    /** Client connections being served or refused now. */
    int open() {
        return served.get();
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
    public void close() {
        closed = true;
        LockSupport.unpark(watchdog);
    }

    /** Moves a connection's phase on Helidon's receive ({@code receive}) or send events, and logs them as Helidon. */
    private record Phases(boolean receive, Http1ConnectionListener log) implements Http1ConnectionListener {
        @Override
        public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
            log.prologue(ctx, prologue);
        }

        @Override
        public void headers(ConnectionContext ctx, Headers headers) {
            if (ctx instanceof GuardedContext guarded) {
                boolean close = headers.containsToken(HeaderValues.CONNECTION_CLOSE);
                if (receive) {
                    guarded.onHeaders(close);
                } else {
                    guarded.onAnswerHeaders(close);
                }
            }
            log.headers(ctx, headers);
        }

        @Override
        public void status(ConnectionContext ctx, Status status) {
            if (!receive && ctx instanceof GuardedContext guarded) {
                guarded.onAnswer();
            }
            log.status(ctx, status);
        }

        @Override
        public void data(ConnectionContext ctx, BufferData data) {
            log.data(ctx, data);
        }

        @Override
        public void data(ConnectionContext ctx, byte[] bytes, int offset, int length) {
            log.data(ctx, bytes, offset, length);
        }
    }

    /** A connection that leaves the guard's count when Helidon is done with it. */
    private final class Tracked implements ServerConnection {
        private final ServerConnection delegate;
        private final GuardedContext guarded;

        Tracked(ServerConnection delegate, GuardedContext guarded) {
            this.delegate = delegate;
            this.guarded = guarded;
        }

        @Override
        public void handle(Limit limit) throws InterruptedException {
            try {
                delegate.handle(limit);
            } finally {
                release(guarded);
            }
        }

        @Override
        public Duration idleTime() {
            return delegate.idleTime();
        }

        @Override
        public void close(boolean interrupt) {
            delegate.close(interrupt);
        }
    }
}
