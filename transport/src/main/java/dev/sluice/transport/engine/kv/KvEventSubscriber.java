package dev.sluice.transport.engine.kv;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.metrics.KvEventMetrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZEvent;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * One engine's KV events, fed to the router: a ZMQ SUB socket on each data-parallel rank's endpoint, read by one
 * platform thread ({@code sluice-kv-events-WORKER}) that decodes each batch ({@link KvBatchDecoder}), translates its
 * blocks to the router's hashes ({@link RankBlocks}) and hands the events to the sink (the router's
 * {@code kvEvent}, which journals them) in the order the engine published them.
 * <ul>
 *   <li>Frames are {@code [topic, sequence (8 bytes big-endian), payload]}. A gap in the sequence is filled from the
 *   engine's replay socket ({@link ReplayClient}); when that cannot be done (no replay endpoint, the buffer no
 *   longer holds the batches, no answer within the source's replay timeout) the worker's cache is unknown: the
 *   router forgets it and rebuilds it from the events that follow. A sequence that goes back (the engine
 *   restarted) does the same, and so does a connection that dropped and came back (a ZMQ socket monitor sees that):
 *   the process now at the address may be a new one, even one that happens to go on at the expected sequence.</li>
 *   <li>A malformed message or event is counted as dropped and logged (one line per 10 s at most); the subscriber
 *   carries on with the next.</li>
 *   <li>A subscriber that starts late learns only the blocks stored from then on: those it missed are not
 *   replayed, so the router may miss hits on them but never believes in blocks the engine does not hold.</li>
 * </ul>
 * {@link #start} connects (ZMQ connects in the background and reconnects by itself, so an engine may come up
 * later); {@link #close} stops the thread within a poll interval (100 ms, or a replay's current wait slice) and
 * closes the sockets. Idempotent; thread-safe.
 */
public final class KvEventSubscriber implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KvEventSubscriber.class);
    private static final int POLL_MS = 100;
    private static final int RECEIVE_HWM = 100_000;
    private static final long LOG_INTERVAL_NS = TimeUnit.SECONDS.toNanos(10);
    private static final AtomicLong MONITORS = new AtomicLong();

    private final long workerId;
    private final KvEventSource source;
    private final KvEventMetrics.Worker counters;
    private final ZContext context;
    private final Feed[] feeds;
    private final RankBlocks[] ranks;
    private final RateLimitedLog log;
    private final Thread thread;
    private volatile boolean stopping;

    /** One rank's socket, its connection events and its sequence numbers. Subscriber thread only. */
    private static final class Feed {
        final int rank;
        final ZMQ.Socket socket;
        final ZMQ.Socket monitor;
        final String replayEndpoint;
        final BitSet ranksSeen = new BitSet();
        long expected = -1;
        /** The connection dropped since the last message: the next one may come from another engine process. */
        boolean disconnected;

        Feed(int rank, ZMQ.Socket socket, ZMQ.Socket monitor, String replayEndpoint) {
            this.rank = rank;
            this.socket = socket;
            this.monitor = monitor;
            this.replayEndpoint = replayEndpoint;
            ranksSeen.set(rank);
        }
    }

    private KvEventSubscriber(long workerId, KvEventSource source, int blockSize, KvEventSink sink,
                              KvEventMetrics.Worker counters) {
        this.workerId = workerId;
        this.source = source;
        this.counters = counters;
        this.log = new RateLimitedLog(line -> LOG.warn("KV events of worker {} ({}): {}", workerId,
            source.endpoint(), line), SystemNanoClock.INSTANCE, LOG_INTERVAL_NS);
        BlockHasher hasher = new BlockHasher(blockSize);
        this.ranks = new RankBlocks[source.dataParallelSize()];
        for (int rank = 0; rank < ranks.length; rank++) {
            ranks[rank] = new RankBlocks(new WorkerWithDpRank(workerId, rank), hasher, sink, counters);
        }
        this.context = new ZContext();
        this.feeds = new Feed[ranks.length];
        try {
            context.setLinger(0);
            for (int rank = 0; rank < feeds.length; rank++) {
                ZMQ.Socket socket = ZmqSockets.create(context, SocketType.SUB);
                socket.setRcvHWM(RECEIVE_HWM);
                socket.subscribe(source.topic().getBytes(StandardCharsets.UTF_8));
                String events = "inproc://sluice-kv-monitor-" + MONITORS.incrementAndGet();
                socket.monitor(events, ZMQ.EVENT_DISCONNECTED);
                ZMQ.Socket monitor = context.createSocket(SocketType.PAIR);
                monitor.connect(events);
                socket.connect(source.endpoint(rank));
                feeds[rank] = new Feed(rank, socket, monitor, source.replayEndpoint(rank));
            }
        } catch (ZMQException | IllegalArgumentException e) {
            context.close();
            throw new IllegalArgumentException("cannot subscribe to the KV events of worker " + workerId + " at "
                + source.endpoint() + ": " + e.getMessage(), e);
        }
        this.thread = Thread.ofPlatform().daemon().name("sluice-kv-events-" + workerId).unstarted(this::run);
    }

    /**
     * Subscribes to {@code source} for worker {@code workerId}, whose events go to {@code sink} from the
     * subscriber's thread, translated for a router that hashes blocks of {@code blockSize} tokens.
     *
     * @throws IllegalArgumentException the endpoint cannot be connected to (its message names it).
     */
    public static KvEventSubscriber start(long workerId, KvEventSource source, int blockSize, KvEventSink sink,
                                          KvEventMetrics.Worker counters) {
        KvEventSubscriber subscriber = new KvEventSubscriber(workerId, Objects.requireNonNull(source, "source"),
            blockSize, Objects.requireNonNull(sink, "sink"), Objects.requireNonNull(counters, "counters"));
        subscriber.thread.start();
        return subscriber;
    }

    /** The worker whose events these are. */
    public long workerId() {
        return workerId;
    }

    private void run() {
        try (ZMQ.Poller poller = context.createPoller(feeds.length * 2)) {
            for (Feed feed : feeds) {
                poller.register(feed.socket, ZMQ.Poller.POLLIN);
                poller.register(feed.monitor, ZMQ.Poller.POLLIN);
            }
            while (!stopping) {
                if (poller.poll(POLL_MS) <= 0) {
                    continue;
                }
                for (int i = 0; i < feeds.length && !stopping; i++) {
                    // A disconnection is noted before the messages that follow it, from whichever engine.
                    if (poller.pollin(2 * i + 1)) {
                        while (ZEvent.recv(feeds[i].monitor, ZMQ.DONTWAIT) != null) {
                            feeds[i].disconnected = true;
                        }
                    }
                    if (poller.pollin(2 * i)) {
                        drain(feeds[i]);
                    }
                }
            }
        } catch (ZMQException e) {
            if (!stopping) {
                LOG.error("KV events of worker {} ({}): the subscriber stopped: {}", workerId, source.endpoint(),
                    e.getMessage());
            }
        } finally {
            context.close();
        }
    }

    private void drain(Feed feed) {
        List<byte[]> frames;
        while (!stopping && (frames = ZmqSockets.receive(feed.socket, ZMQ.DONTWAIT)) != null) {
            try {
                onMessage(feed, frames);
            } catch (RuntimeException e) {
                // A defect in handling one message must not stop the engine's later events.
                counters.drop(KvEventMetrics.Drop.MALFORMED);
                log.log("a message could not be applied: " + e);
            }
        }
    }

    private void onMessage(Feed feed, List<byte[]> frames) {
        counters.batch();
        if (frames.size() != 3) {
            drop("a message of " + frames.size() + " frames, not [topic, sequence, payload]");
            return;
        }
        if (frames.get(1).length != Long.BYTES) {
            drop("a sequence frame of " + frames.get(1).length + " bytes, not 8");
            return;
        }
        long sequence = ByteBuffer.wrap(frames.get(1)).getLong();
        boolean reconnected = feed.disconnected;
        feed.disconnected = false;
        if (reconnected && feed.expected >= 0) {
            // Another process may answer on the same address now, and may even have reached the sequence the old
            // one would have sent next: its cache and its replay buffer are not the old one's.
            reset(feed, KvEventMetrics.Reset.RESTART, "the connection dropped and came back (at sequence "
                + sequence + "): taken as an engine restart; its cache starts empty");
        } else if (feed.expected >= 0 && sequence < feed.expected) {
            reset(feed, KvEventMetrics.Reset.RESTART, "the sequence went back from " + (feed.expected - 1) + " to "
                + sequence + ": the engine restarted; its cache starts empty");
        } else if (feed.expected >= 0 && sequence > feed.expected) {
            counters.gap();
            recover(feed, feed.expected, sequence - 1);
        }
        feed.expected = sequence + 1;
        apply(feed, frames.get(2));
        counters.sequence(sequence);
    }

    private void recover(Feed feed, long from, long until) {
        String lost = "batches " + from + (until > from ? ".." + until : "") + " were lost";
        if (feed.replayEndpoint == null) {
            reset(feed, KvEventMetrics.Reset.GAP, lost + " and the engine has no replay endpoint: its cache is "
                + "unknown until new events");
            return;
        }
        ReplayClient.Outcome outcome = ReplayClient.fetch(context, feed.replayEndpoint, from, until,
            source.replayTimeout(), () -> stopping);
        if (outcome.failure() != null) {
            reset(feed, KvEventMetrics.Reset.GAP, lost + " and cannot be replayed (" + outcome.failure() + "): its "
                + "cache is unknown until new events");
            return;
        }
        for (ReplayClient.Batch batch : outcome.batches()) {
            counters.batch();
            apply(feed, batch.payload());
            counters.sequence(batch.sequence());
        }
        counters.replayed();
    }

    private void reset(Feed feed, KvEventMetrics.Reset reason, String why) {
        counters.reset(reason);
        log.log(why);
        for (int rank = feed.ranksSeen.nextSetBit(0); rank >= 0; rank = feed.ranksSeen.nextSetBit(rank + 1)) {
            ranks[rank].clear();
        }
    }

    private void apply(Feed feed, byte[] payload) {
        KvBatchDecoder.Result result;
        try {
            result = KvBatchDecoder.decode(payload);
        } catch (KvWireException e) {
            drop("a batch that cannot be read: " + e.getMessage());
            return;
        }
        for (String rejected : result.rejected()) {
            drop("an event that cannot be read: " + rejected);
        }
        KvWireBatch batch = result.batch();
        int rank = batch.dpRank() == KvWireBatch.NO_RANK ? feed.rank : batch.dpRank();
        if (rank >= ranks.length) {
            drop("a batch of data-parallel rank " + rank + ", past the " + ranks.length + " rank(s) subscribed to");
            return;
        }
        feed.ranksSeen.set(rank);
        for (KvWireEvent event : batch.events()) {
            String problem = ranks[rank].apply(event);
            if (problem != null) {
                log.log(problem);
            }
        }
    }

    private void drop(String what) {
        counters.drop(KvEventMetrics.Drop.MALFORMED);
        log.log("dropped " + what);
    }

    @Override
    public void close() {
        stopping = true;
        ZmqSockets.join(thread);
    }
}
