package dev.sluice.transport.engine.kv;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * Publishes KV events as vLLM's {@code ZmqEventPublisher} does: a PUB socket sending {@code [topic, sequence
 * (8 bytes big-endian, from 0), payload]} per batch, and optionally a ROUTER replay socket that answers a request
 * {@code [identity, "", first sequence]} with {@code ["", sequence, payload]} for each batch still in its bounded
 * buffer from there, then {@code ["", -1, ""]}. Payloads are {@link KvBatchEncoder}'s (the array-like form).
 * <p>{@link #publish(KvWireBatch)} and {@link #publish(int, KvWireEvent)} may be called from any thread; they queue.
 * One publisher thread ({@code sluice-kv-publisher}) owns the sockets: it sends what is queued, the events queued
 * one at a time grouped into one batch per run of the same rank (as an engine publishes one batch per step), and
 * serves replay requests between sends. {@link #dropNext} makes the next batches go into the replay buffer without
 * being sent, as a subscriber that missed them would see it. {@link #close} sends what is queued, then closes the
 * sockets. Idempotent.
 */
public final class ZmqKvEventPublisher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ZmqKvEventPublisher.class);
    private static final long END = -1L;
    private static final byte[] EMPTY = new byte[0];

    private final ZContext context;
    private final ZMQ.Socket pub;
    private final ZMQ.Socket replay;
    private final byte[] topic;
    private final int bufferSteps;
    private final int port;
    private final int replayPort;
    private final LinkedBlockingQueue<Item> queue = new LinkedBlockingQueue<>();
    private final ArrayDeque<Buffered> buffer = new ArrayDeque<>();
    private final AtomicInteger toDrop = new AtomicInteger();
    private final AtomicLong sequences = new AtomicLong();
    private final Thread thread;
    private volatile boolean stopping;
    private boolean closed;

    private record Item(int rank, KvWireEvent event, KvWireBatch batch) {
    }

    private record Buffered(long sequence, byte[] payload) {
    }

    private ZmqKvEventPublisher(String endpoint, String replayEndpoint, String topic, int bufferSteps) {
        if (bufferSteps < 1) {
            throw new IllegalArgumentException("the replay buffer must hold at least one batch, was " + bufferSteps);
        }
        this.topic = topic.getBytes(StandardCharsets.UTF_8);
        this.bufferSteps = bufferSteps;
        this.context = new ZContext();
        try {
            context.setLinger(0);
            this.pub = ZmqSockets.create(context, SocketType.PUB);
            pub.setSndHWM(100_000);
            this.port = bind(pub, endpoint);
            this.replay = replayEndpoint == null ? null : ZmqSockets.create(context, SocketType.ROUTER);
            this.replayPort = replay == null ? -1 : bind(replay, replayEndpoint);
        } catch (ZMQException | IllegalArgumentException e) {
            context.close();
            throw new IllegalStateException("cannot bind the KV-event publisher to " + endpoint
                + (replayEndpoint == null ? "" : " and " + replayEndpoint) + ": " + e.getMessage(), e);
        }
        this.thread = Thread.ofPlatform().daemon().name("sluice-kv-publisher").unstarted(this::run);
    }

    /**
     * Binds and starts publishing.
     *
     * @param endpoint       e.g. {@code tcp://*:5557}; port 0 or {@code *} binds a free port ({@link #port}).
     * @param replayEndpoint e.g. {@code tcp://*:5558}, or null for none.
     * @param topic          the topic frame of every message (vLLM's default is empty).
     * @param bufferSteps    how many of the latest batches the replay socket can return.
     * @throws IllegalStateException the address cannot be bound (its message names it).
     */
    public static ZmqKvEventPublisher start(String endpoint, String replayEndpoint, String topic, int bufferSteps) {
        ZmqKvEventPublisher publisher = new ZmqKvEventPublisher(endpoint, replayEndpoint, topic, bufferSteps);
        publisher.thread.start();
        return publisher;
    }

    private static int bind(ZMQ.Socket socket, String endpoint) {
        String address = endpoint.endsWith(":0") ? endpoint.substring(0, endpoint.length() - 1) + "*" : endpoint;
        if (!socket.bind(address)) {
            throw new IllegalArgumentException("bind failed");
        }
        String bound = socket.getLastEndpoint();
        int colon = bound == null ? -1 : bound.lastIndexOf(':');
        return colon < 0 ? -1 : Integer.parseInt(bound.substring(colon + 1));
    }

    /** The PUB socket's TCP port (-1 for ipc or inproc). */
    public int port() {
        return port;
    }

    /** The replay socket's TCP port, or -1 (none, ipc or inproc). */
    public int replayPort() {
        return replayPort;
    }

    /** Queues one batch, published as it is. Any thread. */
    public void publish(KvWireBatch batch) {
        queue.add(new Item(batch.dpRank(), null, batch));
    }

    /** Queues one event of {@code dpRank}; the publisher batches the events queued meanwhile. Any thread. */
    public void publish(int dpRank, KvWireEvent event) {
        queue.add(new Item(dpRank, event, null));
    }

    /** The next {@code batches} batches get their sequence numbers and go to the replay buffer, but are not sent. */
    public void dropNext(int batches) {
        toDrop.addAndGet(batches);
    }

    /** Sequence numbers given out so far: batches sent or dropped. Any thread. */
    public long sequences() {
        return sequences.get();
    }

    private void run() {
        try (ZMQ.Poller poller = context.createPoller(1)) {
            if (replay != null) {
                poller.register(replay, ZMQ.Poller.POLLIN);
            }
            while (!stopping || !queue.isEmpty()) {
                Item first;
                if (replay == null) {
                    first = queue.poll(10, TimeUnit.MILLISECONDS);
                } else {
                    // Idle, it waits on the replay socket (up to 10 ms), so a request is answered at once.
                    if (poller.poll(queue.isEmpty() ? 10 : 0) > 0) {
                        serveReplays();
                    }
                    first = queue.poll();
                }
                if (first != null) {
                    List<Item> items = new ArrayList<>();
                    items.add(first);
                    queue.drainTo(items);
                    send(items);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ZMQException e) {
            LOG.error("the KV-event publisher stopped: {}", e.getMessage());
        } finally {
            context.close();
        }
    }

    private void send(List<Item> items) {
        List<KvWireEvent> run = new ArrayList<>();
        int runRank = KvWireBatch.NO_RANK;
        for (Item item : items) {
            if (item.batch() != null || item.rank() != runRank) {
                flush(run, runRank);
                runRank = item.rank();
            }
            if (item.batch() != null) {
                sendBatch(item.batch());
            } else {
                run.add(item.event());
            }
        }
        flush(run, runRank);
    }

    private void flush(List<KvWireEvent> run, int rank) {
        if (!run.isEmpty()) {
            sendBatch(new KvWireBatch(System.currentTimeMillis() / 1000.0, run, rank));
            run.clear();
        }
    }

    private void sendBatch(KvWireBatch batch) {
        byte[] payload = KvBatchEncoder.encode(batch);
        long sequence = sequences.getAndIncrement();
        boolean drop = toDrop.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
        if (!drop) {
            pub.sendMore(topic);
            pub.sendMore(sequenceBytes(sequence));
            pub.send(payload);
        }
        buffer.addLast(new Buffered(sequence, payload));
        if (buffer.size() > bufferSteps) {
            buffer.removeFirst();
        }
    }

    private void serveReplays() {
        if (replay == null) {
            return;
        }
        byte[] identity;
        while ((identity = replay.recv(ZMQ.DONTWAIT)) != null) {
            List<byte[]> frames = new ArrayList<>(List.of(identity));
            while (replay.hasReceiveMore()) {
                frames.add(replay.recv());
            }
            if (frames.size() != 3 || frames.get(2).length != Long.BYTES) {
                LOG.warn("KV-event replay: ignored a request of {} frames, not [identity, \"\", sequence]",
                    frames.size());
                continue;
            }
            long from = ByteBuffer.wrap(frames.get(2)).getLong();
            for (Buffered batch : buffer) {
                if (batch.sequence() >= from) {
                    replay.sendMore(identity);
                    replay.sendMore(EMPTY);
                    replay.sendMore(sequenceBytes(batch.sequence()));
                    replay.send(batch.payload());
                }
            }
            replay.sendMore(identity);
            replay.sendMore(EMPTY);
            replay.sendMore(sequenceBytes(END));
            replay.send(EMPTY);
        }
    }

    private static byte[] sequenceBytes(long sequence) {
        return ByteBuffer.allocate(Long.BYTES).putLong(sequence).array();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopping = true;
        ZmqSockets.join(thread);
    }
}
