package dev.sluice.transport.budget;

import dev.sluice.core.api.BudgetGrant;
import dev.sluice.core.api.BudgetLedger;
import dev.sluice.core.api.SharedBudgets;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamOptions;
import io.nats.client.KeyValue;
import io.nats.client.KeyValueOptions;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.StorageType;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.agrona.concurrent.EpochNanoClock;

/**
 * {@link SharedBudgets} on a NATS JetStream key-value bucket: one key per budget, its value the bucket's state
 * ({@link BudgetLedger}). A claim reads the key, computes the step and writes it back only if the key's revision is
 * still the one read (create-if-absent for a new key), retrying on conflict, so claims from every replica add up
 * exactly. Each claim runs on a virtual thread of its own; the caller never waits. While the connection is not
 * connected, claims fail at once (the plugin's fail policy then applies). Keys idle for two minutes expire (their
 * bucket is full again after one); the bucket is file-backed, so a restarted NATS keeps the budgets.
 *
 * <p>Thread-safe. Does not own the connection; {@link #close()} stops its claim threads. Its counters
 * ({@link #writes()}, {@link #conflicts()}, {@link #failures()}) are for tests and metrics.
 */
public final class NatsBudgets implements SharedBudgets, AutoCloseable {
    /** The key-value bucket the budgets live in. */
    public static final String BUCKET = "sluice_budgets";
    private static final int WRONG_LAST_SEQUENCE = 10071;
    private static final int STREAM_NOT_FOUND = 10059;
    private static final int MAX_ATTEMPTS = 64;

    private final Supplier<Connection> connection;
    private final KeyValueOptions options;
    private final EpochNanoClock clock;
    private final ExecutorService claimThreads = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong conflicts = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final ReentrantLock binding = new ReentrantLock();
    private volatile KeyValue kv;

    /**
     * Budgets on {@code connection}; no I/O here: the bucket is bound (and created if absent) by the first claim,
     * and a claim while NATS or JetStream cannot be reached fails, so serve starts whether or not NATS is up.
     *
     * @param requestTimeout how long one JetStream request may take.
     * @param clock          the wall clock, in epoch nanoseconds, that the replicas share (NTP-synchronised).
     */
    public NatsBudgets(Connection connection, Duration requestTimeout, EpochNanoClock clock) {
        this(() -> connection, requestTimeout, clock);
    }

    /**
     * Budgets on the connection {@code connection} gives, null until a link's first connect succeeds (a claim
     * before that fails as one while NATS is down does).
     */
    public NatsBudgets(Supplier<Connection> connection, Duration requestTimeout, EpochNanoClock clock) {
        this.connection = connection;
        this.options = KeyValueOptions.builder()
            .jetStreamOptions(JetStreamOptions.builder().requestTimeout(requestTimeout).build()).build();
        this.clock = clock;
    }

    /** The bucket, bound on first use; a failed bind is tried again by the next claim. */
    private KeyValue kv() throws IOException, JetStreamApiException {
        KeyValue bound = kv;
        if (bound == null) {
            // A lock, not a monitor: the bind does I/O on a virtual thread, which must not pin its carrier.
            binding.lock();
            try {
                bound = kv;
                if (bound == null) {
                    Connection connected = connection();
                    ensureBucket(connected);
                    bound = connected.keyValue(BUCKET, options);
                    kv = bound;
                }
            } finally {
                binding.unlock();
            }
        }
        return bound;
    }

    /** Creates the bucket unless it exists; a replica that races another to it binds to theirs. */
    private static void ensureBucket(Connection connection) throws IOException, JetStreamApiException {
        if (connection.keyValueManagement().getBucketNames().contains(BUCKET)) {
            return;
        }
        try {
            connection.keyValueManagement().create(KeyValueConfiguration.builder().name(BUCKET)
                .storageType(StorageType.File).maxHistoryPerKey(1)
                .ttl(Duration.ofNanos(2 * BudgetLedger.WINDOW_NS)).build());
        } catch (JetStreamApiException raced) {
            if (!connection.keyValueManagement().getBucketNames().contains(BUCKET)) {
                throw raced;
            }
        }
    }

    @Override
    public CompletableFuture<BudgetGrant> claim(String key, long limitPerMinute, long minUnits, long maxUnits) {
        return run(() -> {
            String natsKey = BudgetKeys.encode(key);
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                KeyValueEntry entry = read(natsKey);
                long fullAt = entry == null ? Long.MIN_VALUE : BudgetLedger.decode(entry.getValue());
                BudgetLedger.Step step = BudgetLedger.claim(fullAt, clock.nanoTime(), limitPerMinute, minUnits,
                    maxUnits);
                if (step.grant().units() == 0 || write(natsKey, entry, step.fullAt())) {
                    return step.grant();
                }
            }
            throw new IOException("gave up on budget \"" + key + "\" after " + MAX_ATTEMPTS + " conflicting writes");
        });
    }

    @Override
    public CompletableFuture<Void> refund(String key, long limitPerMinute, long units) {
        return run(() -> {
            String natsKey = BudgetKeys.encode(key);
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                KeyValueEntry entry = read(natsKey);
                if (entry == null) {
                    return null;
                }
                long fullAt = BudgetLedger.decode(entry.getValue());
                long refunded = BudgetLedger.refund(fullAt, clock.nanoTime(), limitPerMinute, units);
                if (refunded == fullAt || write(natsKey, entry, refunded)) {
                    return null;
                }
            }
            return null;
        });
    }

    /** Writes that succeeded, compare-and-set conflicts retried, and claims or refunds that failed. */
    public long writes() {
        return writes.get();
    }

    public long conflicts() {
        return conflicts.get();
    }

    public long failures() {
        return failures.get();
    }

    /** The link's connection; an {@link IOException} before its first connect. */
    private Connection connection() throws IOException {
        Connection connected = connection.get();
        if (connected == null) {
            throw new IOException("NATS is not connected yet");
        }
        return connected;
    }

    @Override
    public void close() {
        claimThreads.shutdownNow();
    }

    /** The key's entry, or null; a bucket deleted under us (an operator, a NATS without its store) is made anew. */
    private KeyValueEntry read(String natsKey) throws IOException, JetStreamApiException {
        try {
            return kv().get(natsKey);
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() != STREAM_NOT_FOUND) {
                throw e;
            }
            ensureBucket(connection());
            return kv().get(natsKey);
        }
    }

    /** Writes {@code fullAt} if the key is still at {@code read}'s revision (absent, if {@code read} is null). */
    private boolean write(String natsKey, KeyValueEntry read, long fullAt) throws IOException, JetStreamApiException {
        try {
            if (read == null) {
                kv().create(natsKey, BudgetLedger.encode(fullAt));
            } else {
                kv().update(natsKey, BudgetLedger.encode(fullAt), read.getRevision());
            }
            writes.incrementAndGet();
            return true;
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() != WRONG_LAST_SEQUENCE) {
                throw e;
            }
            conflicts.incrementAndGet();
            return false;
        }
    }

    private interface Call<T> {
        T call() throws Exception;
    }

    private <T> CompletableFuture<T> run(Call<T> call) {
        Connection connected = connection.get();
        if (connected == null || connected.getStatus() != Connection.Status.CONNECTED) {
            failures.incrementAndGet();
            return CompletableFuture.failedFuture(new IOException("NATS is not connected ("
                + (connected == null ? "connecting" : connected.getStatus()) + ")"));
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            claimThreads.execute(() -> {
                try {
                    result.complete(call.call());
                } catch (Exception e) {
                    failures.incrementAndGet();
                    result.completeExceptionally(e);
                }
            });
        } catch (RuntimeException rejected) {
            result.completeExceptionally(rejected);
        }
        return result;
    }
}
