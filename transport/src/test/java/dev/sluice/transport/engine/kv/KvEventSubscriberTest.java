package dev.sluice.transport.engine.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.transport.metrics.KvEventMetrics;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.RecordingKvSink;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A subscriber against a real publisher over loopback ZMQ. Each test first waits until the subscription is up (a
 * SUB socket misses what is published before it is connected), then waits for outcomes: the sink's events and the
 * subscriber's counters.
 */
class KvEventSubscriberTest {
    private static final int BLOCK = 4;
    private static final long WORKER = 3;

    private final RecordingKvSink sink = new RecordingKvSink();
    private final KvEventMetrics.Worker counters = new KvEventMetrics().worker(WORKER);
    private final List<AutoCloseable> open = new ArrayList<>();
    private final BlockHasher hasher = new BlockHasher(BLOCK);
    private long nextHash = 1000;

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T opened(T resource) {
        open.add(resource);
        return resource;
    }

    private ZmqKvEventPublisher publisher(boolean replay, int buffer) {
        return opened(ZmqKvEventPublisher.start("tcp://127.0.0.1:0", replay ? "tcp://127.0.0.1:0" : null, "kv",
            buffer));
    }

    private KvEventSubscriber subscribe(ZmqKvEventPublisher publisher, Duration replayTimeout) {
        KvEventSource source = new KvEventSource("tcp://127.0.0.1:" + publisher.port(), publisher.replayPort() < 0
            ? null : "tcp://127.0.0.1:" + publisher.replayPort()).withReplayTimeout(replayTimeout);
        return opened(KvEventSubscriber.start(WORKER, source, BLOCK, sink, counters));
    }

    /**
     * Publishes empty batches, each once the one before is sent, until one arrives; then waits until the last of
     * them has, so that nothing of the test's is queued behind a probe.
     */
    private void connect(ZmqKvEventPublisher publisher) {
        long[] queued = {publisher.sequences()};
        Await.until("the subscription is up", () -> {
            if (publisher.sequences() == queued[0]) {
                publisher.publish(new KvWireBatch(0, List.of(), KvWireBatch.NO_RANK));
                queued[0]++;
            }
            return counters.sequence() >= 0;
        });
        Await.until("the probes are all in", () -> publisher.sequences() == queued[0]
            && counters.sequence() == queued[0] - 1);
    }

    /** A connected publisher with a replay buffer of {@code buffer} that sends three prompts, the first two lost. */
    private void dropTwoOfThree(int buffer) {
        ZmqKvEventPublisher publisher = publisher(true, buffer);
        subscribe(publisher, Duration.ofSeconds(5));
        connect(publisher);
        publisher.dropNext(2);
        publisher.publish(prompt(10));
        publisher.publish(prompt(20));
        publisher.publish(prompt(30));
    }

    /** A prompt's first block as the engine publishes it, under a hash of its own. */
    private KvWireBatch prompt(int firstToken) {
        int[] tokens = {firstToken, firstToken + 1, firstToken + 2, firstToken + 3};
        return new KvWireBatch(1.0, List.of(KvWireEvent.BlockStored.of(new long[] {nextHash++}, false, 0, tokens,
            BLOCK)), KvWireBatch.NO_RANK);
    }

    private long routerHash(int firstToken) {
        return hasher.localHash(new int[] {firstToken, firstToken + 1, firstToken + 2, firstToken + 3}, 0);
    }

    private List<Long> storedHashes() {
        return sink.events(KvEvent.Stored.class).stream().map(e -> e.sequenceHashes()[0]).toList();
    }

    @Test
    void shouldFeedStoredBlocksInTheRoutersHashes() {
        ZmqKvEventPublisher publisher = publisher(false, 10);
        subscribe(publisher, Duration.ofSeconds(1));
        connect(publisher);

        publisher.publish(prompt(10));
        publisher.publish(prompt(20));

        Await.until("two stored runs", () -> sink.events(KvEvent.Stored.class).size() == 2);
        assertEquals(List.of(routerHash(10), routerHash(20)), storedHashes());
        assertEquals(new WorkerWithDpRank(WORKER, 0), sink.events().getFirst().worker());
        assertEquals(0, counters.gaps());
    }

    @Test
    void shouldFillAGapFromTheReplaySocketInOrder() {
        dropTwoOfThree(100);

        Await.until("the gap is filled", () -> counters.replays() == 1 && sink.events().size() == 3);
        assertEquals(List.of(routerHash(10), routerHash(20), routerHash(30)), storedHashes());
        assertEquals(1, counters.gaps());
        assertEquals(0, counters.resets(KvEventMetrics.Reset.GAP));
    }

    @Test
    void shouldForgetTheCacheWhenTheReplayBufferNoLongerHoldsTheGap() {
        dropTwoOfThree(1);

        Await.until("the reset", () -> counters.resets(KvEventMetrics.Reset.GAP) == 1 && sink.events().size() == 2);
        assertEquals(List.of(KvEvent.Cleared.class, KvEvent.Stored.class),
            sink.events().stream().map(Object::getClass).toList());
        assertEquals(List.of(routerHash(30)), storedHashes());
        assertEquals(0, counters.replays());
    }

    @Test
    void shouldForgetTheCacheOnAGapWithoutAReplayEndpoint() {
        ZmqKvEventPublisher publisher = publisher(false, 10);
        subscribe(publisher, Duration.ofSeconds(1));
        connect(publisher);

        publisher.publish(prompt(10));
        Await.until("the first block", () -> sink.events().size() == 1);
        publisher.dropNext(1);
        publisher.publish(prompt(20));
        publisher.publish(prompt(30));

        Await.until("the reset", () -> counters.resets(KvEventMetrics.Reset.GAP) == 1 && sink.events().size() == 3);
        assertEquals(List.of(KvEvent.Stored.class, KvEvent.Cleared.class, KvEvent.Stored.class),
            sink.events().stream().map(Object::getClass).toList());
    }

    @Test
    void shouldForgetTheCacheWhenAReplaySocketDoesNotAnswer() {
        ZmqKvEventPublisher publisher = publisher(false, 10);
        try (ZContext context = new ZContext()) {
            ZMQ.Socket silent = ZmqSockets.create(context, SocketType.ROUTER);
            int port = silent.bindToRandomPort("tcp://127.0.0.1");
            KvEventSource source = new KvEventSource("tcp://127.0.0.1:" + publisher.port(), "tcp://127.0.0.1:" + port)
                .withReplayTimeout(Duration.ofSeconds(2));
            opened(KvEventSubscriber.start(WORKER, source, BLOCK, sink, counters));
            connect(publisher);

            publisher.dropNext(1);
            publisher.publish(prompt(10));
            publisher.publish(prompt(20));

            Await.until("the reset", () -> counters.resets(KvEventMetrics.Reset.GAP) == 1);
            Await.until("the batch after the gap", () -> storedHashes().equals(List.of(routerHash(20))));
            silent.setReceiveTimeOut(5_000);
            byte[] request = silent.recv();
            List<byte[]> frames = new ArrayList<>(List.of(request));
            while (silent.hasReceiveMore()) {
                frames.add(silent.recv());
            }
            assertEquals(3, frames.size(), "identity, the empty delimiter vLLM's ROUTER expects, the sequence");
            assertEquals(0, frames.get(1).length);
            assertEquals(publisher.sequences() - 2, ByteBuffer.wrap(frames.get(2)).getLong());
        }
    }

    @Test
    void shouldForgetTheCacheWhenTheEngineRestarts() {
        ZmqKvEventPublisher first = publisher(false, 10);
        int port = first.port();
        subscribe(first, Duration.ofSeconds(1));
        connect(first);
        first.publish(prompt(10));
        Await.until("the first engine's block", () -> sink.events().size() == 1);
        first.close();

        ZmqKvEventPublisher restarted = opened(ZmqKvEventPublisher.start("tcp://127.0.0.1:" + port, null, "kv", 10));
        Await.until("the restart is seen", () -> {
            restarted.publish(prompt(20));
            return counters.resets(KvEventMetrics.Reset.RESTART) == 1 && sink.events().size() >= 3;
        });

        List<KvEvent> events = sink.events();
        assertEquals(KvEvent.Cleared.class, events.get(1).getClass());
        assertEquals(routerHash(20), ((KvEvent.Stored) events.get(2)).sequenceHashes()[0]);
    }

    @Test
    void shouldCountMalformedMessagesAndCarryOn() {
        try (ZContext context = new ZContext()) {
            ZMQ.Socket pub = ZmqSockets.create(context, SocketType.PUB);
            int port = pub.bindToRandomPort("tcp://127.0.0.1");
            opened(KvEventSubscriber.start(WORKER, new KvEventSource("tcp://127.0.0.1:" + port, null), BLOCK, sink,
                counters));
            byte[] empty = KvBatchEncoder.encode(new KvWireBatch(0, List.of(), KvWireBatch.NO_RANK));
            long[] sequence = {0};
            Await.until("the subscription is up", () -> {
                send(pub, "kv".getBytes(), sequence(sequence[0]++), empty);
                return counters.sequence() >= 0;
            });
            Await.until("the probes are all in", () -> counters.sequence() == sequence[0] - 1);
            long dropped = counters.dropped(KvEventMetrics.Drop.MALFORMED);

            send(pub, "kv".getBytes(), sequence(sequence[0]));
            send(pub, "kv".getBytes(), new byte[] {1, 2, 3}, empty);
            send(pub, "kv".getBytes(), sequence(sequence[0]++), new byte[] {(byte) 0xc1});
            send(pub, "kv".getBytes(), sequence(sequence[0]++), KvBatchEncoder.encode(new KvWireBatch(0, List.of(
                new KvWireEvent.AllBlocksCleared()), 5)));
            send(pub, "kv".getBytes(), sequence(sequence[0]++), KvBatchEncoder.encode(prompt(10)));

            Await.until("the good batch after the bad ones", () -> sink.events().size() == 1);
            assertArrayEquals(new long[] {routerHash(10)}, sink.events(KvEvent.Stored.class).get(0).sequenceHashes());
            assertEquals(dropped + 4, counters.dropped(KvEventMetrics.Drop.MALFORMED));
            assertEquals(0, counters.gaps(), "a payload that cannot be read still used its sequence number");
        }
    }

    @Test
    void shouldSubscribeToEachDataParallelRankOnItsOwnPort() {
        ZmqKvEventPublisher rank0 = null;
        ZmqKvEventPublisher rank1 = null;
        for (int attempt = 0; rank1 == null && attempt < 20; attempt++) {
            ZmqKvEventPublisher candidate = publisher(false, 10);
            try {
                rank1 = opened(ZmqKvEventPublisher.start("tcp://127.0.0.1:" + (candidate.port() + 1), null, "kv", 10));
                rank0 = candidate;
            } catch (IllegalStateException taken) {
                // The next port was not free; try another pair.
            }
        }
        KvEventSource source = new KvEventSource("tcp://127.0.0.1:" + rank0.port(), null).withDataParallelSize(2);
        opened(KvEventSubscriber.start(WORKER, source, BLOCK, sink, counters));
        ZmqKvEventPublisher second = rank1;
        Await.until("rank 1's block", () -> {
            second.publish(prompt(10));
            return !sink.events().isEmpty();
        });

        assertEquals(new WorkerWithDpRank(WORKER, 1), sink.events().getFirst().worker());
    }

    private static byte[] sequence(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    private static void send(ZMQ.Socket socket, byte[]... frames) {
        for (int i = 0; i < frames.length - 1; i++) {
            socket.sendMore(frames[i]);
        }
        socket.send(frames[frames.length - 1]);
    }
}
