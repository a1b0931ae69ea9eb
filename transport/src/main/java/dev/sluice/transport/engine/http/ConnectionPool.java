package dev.sluice.transport.engine.http;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The idle keep-alive connections to one engine, last in first out (the most recently used one, the least likely
 * to have been closed by the engine meanwhile, goes first; the others age at the bottom), at most a fixed number:
 * one given back beyond that, or after {@link #close}, is closed. Idle connections are not watched: one the engine
 * closed meanwhile fails on its next use, before any byte of an answer, which the client retries on a new
 * connection. Thread-safe (a lock held only to push or pop).
 */
final class ConnectionPool implements AutoCloseable {
    private final ReentrantLock lock = new ReentrantLock();
    private final UpstreamConnection[] idle;
    private int size;
    private boolean closed;

    /** A pool keeping at most {@code maxIdle} idle connections. */
    ConnectionPool(int maxIdle) {
        if (maxIdle < 0) {
            throw new IllegalArgumentException("maxIdle must be >= 0, was " + maxIdle);
        }
        this.idle = new UpstreamConnection[maxIdle];
    }

    /** The most recently given back idle connection, or {@code null} when there is none. */
    UpstreamConnection poll() {
        lock.lock();
        try {
            if (size == 0) {
                return null;
            }
            UpstreamConnection connection = idle[--size];
            idle[size] = null;
            return connection;
        } finally {
            lock.unlock();
        }
    }

    /** Keeps {@code connection} for a later request, or closes it when it cannot carry one or the pool is full. */
    void release(UpstreamConnection connection) {
        if (!connection.reusable()) {
            connection.close();
            return;
        }
        connection.markReused();
        lock.lock();
        try {
            if (!closed && size < idle.length) {
                idle[size++] = connection;
                return;
            }
        } finally {
            lock.unlock();
        }
        connection.close();
    }

    /** How many idle connections are kept now. */
    int idle() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    /** Closes the idle connections; connections given back later are closed. Idempotent. */
    @Override
    public void close() {
        UpstreamConnection[] closing;
        int count;
        lock.lock();
        try {
            closed = true;
            closing = idle.clone();
            count = size;
            Arrays.fill(idle, null);
            size = 0;
        } finally {
            lock.unlock();
        }
        for (int i = 0; i < count; i++) {
            closing[i].close();
        }
    }
}
