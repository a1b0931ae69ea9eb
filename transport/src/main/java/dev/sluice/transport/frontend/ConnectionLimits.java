package dev.sluice.transport.frontend;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;
import java.util.Objects;

/**
 * How many client connections the frontend holds and how long a client may take, so that no client can exhaust the
 * process's file descriptors or hold a connection without sending.
 *
 * <p>A connection over {@code maxConnections} is answered {@code 503 too_many_connections} with
 * {@code Connection: close} as soon as its request head has arrived, and closed; past {@link #OVER_CAP_SLOTS} of
 * those at once, new connections wait in the kernel's accept backlog until one closes (Helidon's
 * {@code maxTcpConnections} is {@code maxConnections + OVER_CAP_SLOTS}, and it takes a permit before it accepts). A
 * connection is closed without an answer when a request head takes longer than {@code headerTimeout} (from the accept
 * for a connection's first request, from its first byte for later ones), a request body longer than
 * {@code bodyTimeout} after its head, or when no next request starts within {@code idleTimeout} of an answer.
 *
 * @param maxConnections client connections served at once, at least 1.
 * @param headerTimeout  the longest a request's line and headers may take to arrive.
 * @param bodyTimeout    the longest a request body may take to arrive after its headers.
 * @param idleTimeout    the longest a kept-alive connection may wait for its next request.
 */
public record ConnectionLimits(int maxConnections, Duration headerTimeout, Duration bodyTimeout,
                               Duration idleTimeout) {
    /** Connections beyond {@code maxConnections} that are accepted only to be answered 503. */
    public static final int OVER_CAP_SLOTS = 16;
    /** Descriptors kept for what is not a client connection: the JVM's own, the journal, engines' metrics. */
    public static final int RESERVED_DESCRIPTORS = 128;
    /** The default connection limit on a process whose descriptor limit allows more. */
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(75);
    /** The longest timeout accepted. */
    public static final Duration MAX_TIMEOUT = Duration.ofHours(1);

    public ConnectionLimits {
        Objects.requireNonNull(headerTimeout, "headerTimeout");
        Objects.requireNonNull(bodyTimeout, "bodyTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (maxConnections < 1) {
            throw new IllegalArgumentException("the connection limit must be at least 1, was " + maxConnections);
        }
        checkTimeout("header", headerTimeout);
        checkTimeout("body", bodyTimeout);
        checkTimeout("idle", idleTimeout);
    }

    /** Whether {@code timeout} is one a limit accepts: above 0, at most {@link #MAX_TIMEOUT}. */
    public static boolean validTimeout(Duration timeout) {
        return !timeout.isNegative() && !timeout.isZero() && timeout.compareTo(MAX_TIMEOUT) <= 0;
    }

    private static void checkTimeout(String what, Duration timeout) {
        if (!validTimeout(timeout)) {
            throw new IllegalArgumentException("the " + what + " timeout must be above 0 and at most 1h, was "
                + timeout);
        }
    }

    /** The defaults, with the connection limit {@link #defaultMaxConnections derived} from this process's. */
    public static ConnectionLimits defaults() {
        return new ConnectionLimits(defaultMaxConnections(descriptorLimit()), DEFAULT_HEADER_TIMEOUT,
            DEFAULT_BODY_TIMEOUT, DEFAULT_IDLE_TIMEOUT);
    }

    /**
     * The most connections {@code descriptorLimit} descriptors allow: two per connection (the client's socket and,
     * while its request runs, one to an engine), {@link #OVER_CAP_SLOTS} for refusals and
     * {@link #RESERVED_DESCRIPTORS} for the rest; 0 when even one does not fit.
     */
    public static int maxConnectionsFor(long descriptorLimit) {
        long fit = (descriptorLimit - RESERVED_DESCRIPTORS - OVER_CAP_SLOTS) / 2;
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, fit));
    }

    /** {@link #DEFAULT_MAX_CONNECTIONS}, or fewer when {@code descriptorLimit} allows fewer (at least 1). */
    public static int defaultMaxConnections(long descriptorLimit) {
        return Math.max(1, Math.min(DEFAULT_MAX_CONNECTIONS, maxConnectionsFor(descriptorLimit)));
    }

    /** This process's limit on open file descriptors ({@code ulimit -n}), or {@link Long#MAX_VALUE} if unknown. */
    public static long descriptorLimit() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : Long.MAX_VALUE;
    }
}
