package dev.sluice.transport.cluster;

import io.nats.client.Connection;
import java.util.ArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.collections.Long2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one model's bookings of this replica, in order, on {@code sluice.bookings.<model>}: the scheduler thread
 * hands each one over ({@link #offer}, never blocking) and this publisher's own thread numbers it in the model's
 * stream (1, 2, 3, ...: a receiver that sees a number skipped knows it missed something) and publishes it. It keeps
 * the bookings still live, so a {@link #resync} (a receiver asked for one) publishes a {@code RESET} and every live
 * booking again. A publish that fails (not connected yet, the reconnect buffer full) is counted; its number is used
 * all the same, so receivers see the gap and resync.
 *
 * <p>{@link #offer} and {@link #resync}: any thread; the rest is the publisher thread's. {@link #close} is
 * idempotent.
 */
final class BookingPublisher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BookingPublisher.class);
    private static final Object RESYNC = new Object();
    private static final Object STOP = new Object();

    private final NatsLink link;
    private final String subject;
    private final String replica;
    private final LinkedBlockingQueue<Object> outbox = new LinkedBlockingQueue<>();
    private final Long2ObjectHashMap<BookingWire> live = new Long2ObjectHashMap<>();
    private final AtomicLong lastSeq = new AtomicLong();
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong resyncs = new AtomicLong();
    private final Thread thread;
    private long seq;

    BookingPublisher(NatsLink link, String subject, String replica, String model) {
        this.link = link;
        this.subject = subject;
        this.replica = replica;
        this.thread = Thread.ofPlatform().daemon().name("sluice-bookings-" + model).start(this::run);
    }

    /** Queues a booking message (its number is given on sending). Any thread; never blocks. */
    void offer(BookingWire message) {
        outbox.offer(message);
    }

    /** Queues a resync: a RESET, then every live booking again. Any thread. */
    void resync() {
        outbox.offer(RESYNC);
    }

    /** The number of the last message published (or attempted): heartbeats carry it. */
    long lastSeq() {
        return lastSeq.get();
    }

    long published() {
        return published.get();
    }

    long failures() {
        return failures.get();
    }

    long resyncs() {
        return resyncs.get();
    }

    private void run() {
        try {
            while (true) {
                Object next = outbox.take();
                if (next == STOP) {
                    return;
                }
                if (next == RESYNC) {
                    resyncNow();
                } else {
                    send((BookingWire) next);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void send(BookingWire message) {
        switch (message.kind()) {
            case BOOKED -> live.put(message.key(), message);
            case PREFILL_DONE -> {
                BookingWire booked = live.get(message.key());
                if (booked == null) {
                    return;
                }
                live.put(message.key(), BookingWire.booked(replica, 0, 0, booked.key(), booked.engine(),
                    booked.dpRank(), 0, booked.hashes()));
            }
            case RELEASED -> {
                if (live.remove(message.key()) == null) {
                    return;
                }
            }
            case RESET -> {
            }
        }
        publish(message.resent(++seq, message.sentMicros()));
    }

    private void resyncNow() {
        resyncs.incrementAndGet();
        publish(BookingWire.of(BookingWire.Kind.RESET, replica, ++seq, 0));
        for (BookingWire booked : new ArrayList<>(live.values())) {
            publish(booked.resent(++seq, 0));
        }
    }

    private void publish(BookingWire message) {
        try {
            Connection connection = link.connection();
            if (connection == null) {
                throw new IllegalStateException("not connected to NATS yet");
            }
            connection.publish(subject, message.encode());
            published.incrementAndGet();
        } catch (RuntimeException e) {
            if (failures.getAndIncrement() % 1000 == 0) {
                LOG.warn("NATS: a booking message on {} was not published ({}); receivers will resync", subject,
                    e.toString());
            }
        }
        lastSeq.set(message.seq());
    }

    @Override
    public void close() {
        if (!thread.isAlive()) {
            return;
        }
        outbox.offer(STOP);
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
