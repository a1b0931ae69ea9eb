package dev.sluice.transport.engine.kv;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Asks an engine's replay socket (a ZMQ ROUTER) for the batches it still buffers from a sequence number on. The
 * request is what vLLM's and SGLang's ROUTER expects from a REQ client, sent from a DEALER: an empty delimiter
 * frame, then the first sequence wanted as 8 bytes big-endian. The engine answers one message per buffered batch
 * from there, {@code ["", sequence, payload]}, then {@code ["", -1, ""]}; an answer with a topic frame before the
 * sequence (TensorRT-LLM's) is read too. Each request uses a fresh DEALER, closed at the end, so late answers to
 * a request that timed out cannot be mistaken for the next one's. Called on the subscriber thread only.
 */
final class ReplayClient {
    private static final int SLICE_MS = 100;
    private static final byte[] EMPTY = new byte[0];

    private ReplayClient() {
    }

    /** One replayed batch. */
    record Batch(long sequence, byte[] payload) {
    }

    /**
     * The batches {@code from..until}, all of them, or why they cannot be had.
     *
     * @param batches the batches in order when {@code failure} is null.
     * @param failure what went wrong, or null.
     */
    record Outcome(List<Batch> batches, String failure) {
        static Outcome failed(String why) {
            return new Outcome(List.of(), why);
        }
    }

    /**
     * Requests {@code from..until} (inclusive) and reads until it has them, the engine's end marker, or
     * {@code timeout} of silence; {@code stopping} cuts the wait short (the subscriber is closing).
     */
    static Outcome fetch(ZContext context, String endpoint, long from, long until, Duration timeout,
                         BooleanSupplier stopping) {
        ZMQ.Socket dealer = ZmqSockets.create(context, SocketType.DEALER);
        try {
            dealer.setReceiveTimeOut(SLICE_MS);
            dealer.connect(endpoint);
            dealer.sendMore(EMPTY);
            dealer.send(ByteBuffer.allocate(Long.BYTES).putLong(from).array());
            List<Batch> batches = new ArrayList<>();
            long next = from;
            long silentSince = System.nanoTime();
            while (true) {
                List<byte[]> frames = ZmqSockets.receive(dealer, 0);
                if (frames == null) {
                    if (stopping.getAsBoolean()) {
                        return Outcome.failed("the subscriber is closing");
                    }
                    if (System.nanoTime() - silentSince > timeout.toNanos()) {
                        return Outcome.failed("the replay socket " + endpoint + " sent nothing for " + timeout
                            .toMillis() + " ms");
                    }
                    continue;
                }
                silentSince = System.nanoTime();
                int first = !frames.isEmpty() && frames.get(0).length == 0 ? 1 : 0;
                int count = frames.size() - first;
                if (count != 2 && count != 3 || frames.get(frames.size() - 2).length != Long.BYTES) {
                    return Outcome.failed("the replay socket answered " + frames.size() + " frames, not [\"\", "
                        + "sequence (8 bytes), payload]");
                }
                long sequence = ByteBuffer.wrap(frames.get(frames.size() - 2)).getLong();
                if (sequence == -1) {
                    return Outcome.failed("the engine's replay buffer ended at " + (next - 1) + ", before " + until
                        + (next == from ? " (it no longer holds " + from + ")" : ""));
                }
                if (sequence < next) {
                    continue;
                }
                if (sequence > next) {
                    return Outcome.failed("the engine's replay buffer no longer holds " + next + " (it starts at "
                        + sequence + ")");
                }
                batches.add(new Batch(sequence, frames.getLast()));
                if (sequence == until) {
                    return new Outcome(batches, null);
                }
                next++;
            }
        } finally {
            dealer.close();
        }
    }
}
