package dev.sluice.transport.cluster;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's connection to nats-server (jnats). It never gives up: the first connect and every reconnect are
 * retried forever, waiting 100 ms after the first failure and twice as long after each next one, up to 2 s (plus
 * jitter), so a restarted nats-server is found again without restarting serve. The first connect runs on a thread
 * of its own (jnats retries it on the calling thread), so a serve started while NATS is down starts anyway and
 * serves on its local view until NATS is there; {@link #whenConnected} runs what needs the connection once it is
 * there. While disconnected later, publishes wait in jnats' reconnect buffer. {@link #connection()} is the shared
 * {@link Connection} other parts of serve (the budget store) may use.
 *
 * <p>Thread-safe. {@link #close} is idempotent.
 */
public final class NatsLink implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NatsLink.class);
    private static final long FIRST_WAIT_MS = 100;
    private static final long MAX_WAIT_MS = 2000;

    private final String url;
    private final Thread connecting;
    private final List<Consumer<Connection>> onConnect = new ArrayList<>();
    private volatile Connection connection;
    private final AtomicLong reconnects = new AtomicLong();
    private final List<Runnable> onReconnect = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    /** Whether the last event was a connect: jnats reports a disconnect per failed reconnect attempt, logged once. */
    private volatile boolean up;

    private NatsLink(String url, Options options) {
        this.url = url;
        this.connecting = Thread.ofPlatform().daemon().name("sluice-nats-connect").start(() -> connect(options));
    }

    private void connect(Options options) {
        Connection connected;
        try {
            connected = Nats.connectReconnectOnConnect(options);
        } catch (IOException e) {
            LOG.error("NATS: cannot connect to {}: {}; serving on the local view", url, e.getMessage());
            return;
        } catch (InterruptedException e) {
            return;
        }
        List<Consumer<Connection>> waiting;
        synchronized (onConnect) {
            if (closed) {
                closeQuietly(connected);
                return;
            }
            connection = connected;
            waiting = List.copyOf(onConnect);
            onConnect.clear();
        }
        waiting.forEach(action -> action.accept(connected));
    }

    /** Runs {@code action} with the connection: now if connected once already, else on the first connect. */
    public void whenConnected(Consumer<Connection> action) {
        Connection now;
        synchronized (onConnect) {
            now = connection;
            if (now == null) {
                onConnect.add(action);
                return;
            }
        }
        action.accept(now);
    }

    /**
     * Connects to {@code url} ({@code nats://HOST:PORT}) as {@code identity}; returns at once when the server is not
     * there (the connection then keeps trying).
     *
     * @throws IllegalArgumentException the URL is malformed.
     */
    public static NatsLink connect(String url, ReplicaIdentity identity) {
        Options.Builder options;
        try {
            options = new Options.Builder().server(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--nats-url must be nats://HOST:PORT, was '" + url + "': "
                + e.getMessage(), e);
        }
        options.connectionName("sluice " + identity.id())
            .maxReconnects(-1)
            .connectionTimeout(Duration.ofSeconds(2))
            .pingInterval(Duration.ofSeconds(2))
            .maxPingsOut(2)
            .reconnectJitter(Duration.ofMillis(100))
            .reconnectDelayHandler(attempts -> Duration.ofMillis(backoffMs(attempts)))
            .errorListener(new ErrorListener() { });
        NatsLink[] self = new NatsLink[1];
        options.connectionListener((connection, event) -> self[0].onEvent(event));
        self[0] = new NatsLink(url, options.build());
        return self[0];
    }

    /** The wait before reconnect attempt {@code attempts}: 100 ms doubling to 2 s. */
    static long backoffMs(long attempts) {
        long shift = Math.min(Math.max(attempts - 1, 0), 10);
        return Math.min(MAX_WAIT_MS, FIRST_WAIT_MS << shift);
    }

    private void onEvent(ConnectionListener.Events event) {
        switch (event) {
            case CONNECTED -> {
                up = true;
                LOG.info("NATS: connected to {}", url);
            }
            case DISCONNECTED -> {
                boolean wasUp = up;
                up = false;
                if (!closed && wasUp) {
                    LOG.warn("NATS: disconnected from {}; reconnecting, serving on the local view meanwhile", url);
                }
            }
            case RECONNECTED -> {
                up = true;
                reconnects.incrementAndGet();
                LOG.info("NATS: reconnected to {}", url);
                onReconnect.forEach(Runnable::run);
            }
            default -> {
            }
        }
    }

    /** Runs {@code action} on jnats' event thread after every reconnect. */
    void onReconnect(Runnable action) {
        onReconnect.add(action);
    }

    /** The connection, for every part of serve that talks to NATS; null until the first connect. */
    public Connection connection() {
        return connection;
    }

    /** The server URL as given. */
    public String url() {
        return url;
    }

    /** {@code CONNECTED}, {@code RECONNECTING}, {@code DISCONNECTED}, {@code CLOSED}, ... (jnats' status). */
    public String state() {
        Connection now = connection;
        return now == null ? "CONNECTING" : now.getStatus().name();
    }

    /** Whether the connection is up now. */
    public boolean connected() {
        Connection now = connection;
        return now != null && now.getStatus() == Connection.Status.CONNECTED;
    }

    /** Reconnects since start. */
    public long reconnects() {
        return reconnects.get();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        Connection now;
        synchronized (onConnect) {
            closed = true;
            now = connection;
        }
        if (now == null) {
            // Still trying the first connect: jnats waits between attempts interruptibly.
            connecting.interrupt();
        } else {
            closeQuietly(now);
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
