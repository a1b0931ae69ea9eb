package dev.sluice.transport.frontend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workers whose engine is not set up for what sluice asks it (it does not serve the model, answers 404 at the
 * URL, refuses the credentials): a configuration error, which neither counts as the engine's failure (the worker
 * stays in the router, its health untouched) nor is the client's. The first such answer from a worker is logged once,
 * as an ERROR naming the worker, its URL and what to fix; {@code /health} lists it until a request on that worker
 * succeeds again (the engine, or sluice, was restarted right), which is logged too.
 *
 * <p>Threads: reports come from the HTTP handlers' virtual threads (and the model check of an engine that joins),
 * reads from {@code /health}'s; concurrent maps by worker id, a transition logged by whoever made it. Thread-safe.
 */
final class EngineConfigErrors {
    private static final Logger LOG = LoggerFactory.getLogger(EngineConfigErrors.class);

    /** Where each tracked worker's engine runs (for logs and {@code /health}). */
    private final Map<Integer, String> addresses = new ConcurrentSkipListMap<>();
    private final Map<Integer, String> errors = new ConcurrentSkipListMap<>();

    /** @param addresses where each worker's engine runs (for logs and {@code /health}), by worker id. */
    EngineConfigErrors(List<String> addresses) {
        for (int worker = 0; worker < addresses.size(); worker++) {
            track(worker, addresses.get(worker));
        }
    }

    /** Tracks a worker that joined, whose engine runs at {@code address}. */
    void track(int worker, String address) {
        addresses.put(worker, address);
    }

    /** Stops tracking a worker whose engine left: its error, if any, is no longer listed. */
    void forget(int worker) {
        addresses.remove(worker);
        errors.remove(worker);
    }

    /** The engine of {@code worker} answered that sluice is set up wrong for it: {@code problem} says how. */
    void onMisconfigured(int worker, String problem) {
        if (!addresses.containsKey(worker)) {
            return;
        }
        String before = errors.put(worker, problem);
        if (!problem.equals(before)) {
            LOG.error("worker {} ({}) is misconfigured: {}. Requests to it fail until that is fixed; this is a "
                + "configuration error, not an engine failure: the worker stays in the router", worker,
                addresses.get(worker), problem);
        }
    }

    /** A request on {@code worker} succeeded: whatever was misconfigured is fixed. */
    void onSuccess(int worker) {
        if (errors.get(worker) != null && errors.remove(worker) != null) {
            LOG.info("worker {} ({}) serves requests again: its configuration error is gone", worker,
                addresses.get(worker));
        }
    }

    /** How many workers are misconfigured now. */
    int count() {
        return errors.size();
    }

    /** One line per misconfigured worker: {@code worker 0 (URL): problem}. */
    List<String> describe() {
        List<String> lines = new ArrayList<>();
        errors.forEach((worker, error) -> lines.add("worker " + worker + " (" + addresses.get(worker) + "): "
            + error));
        return lines;
    }

    /** True when there are workers and every one of them is misconfigured. */
    boolean all() {
        int tracked = addresses.size();
        return tracked > 0 && errors.size() == tracked;
    }
}
