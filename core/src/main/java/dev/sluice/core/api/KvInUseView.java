package dev.sluice.core.api;

import java.util.OptionalLong;

/**
 * A read-only view of the KV blocks in use on each worker rank, as the router knows it now: the blocks of the
 * requests it has dispatched there and not yet seen end (a prefix several of them share counts once), plus the
 * blocks the engine's last load report shows beyond those (other clients, other routers). The host owns the
 * figures and keeps them current; a plugin only reads them.
 *
 * <p>Read it only on the scheduler thread (from {@code classify}, an event or a classifier timer): the host
 * updates it there and it is not thread-safe.
 */
@FunctionalInterface
public interface KvInUseView {
    /** No figures at all: every rank reads as unknown. */
    KvInUseView NONE = worker -> OptionalLong.empty();

    /** KV blocks in use on the rank now; empty for a rank the router does not know. */
    OptionalLong usedKvBlocks(WorkerWithDpRank worker);
}
