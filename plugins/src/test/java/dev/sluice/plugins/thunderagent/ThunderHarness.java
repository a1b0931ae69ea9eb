package dev.sluice.plugins.thunderagent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.RequestClassifierContext;
import dev.sluice.core.api.RequestClassifierParameters;
import dev.sluice.core.api.RequestClassifierWorker;
import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.testing.TestClocks;
import dev.sluice.plugins.testing.FakeRequest;
import dev.sluice.plugins.testing.ManualTimers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.agrona.concurrent.CachedNanoClock;

/**
 * A ThunderAgent classifier driven by hand: a manual clock, manual timers, a worker list the test edits (block size
 * 1, so capacities are in tokens), a KV-in-use view the test sets and requests built as {@link FakeRequest}s.
 * Counts the classifier's reads of the worker list.
 */
final class ThunderHarness {
    private static final ObjectMapper JSON = new ObjectMapper();

    final CachedNanoClock clock = TestClocks.started();
    final ManualTimers timers = new ManualTimers(clock);
    final ThunderAgentClassifier classifier;
    final ThunderAgentConfig config;
    private final TreeMap<WorkerWithDpRank, OptionalLong> cards = new TreeMap<>();
    private List<RequestClassifierWorker> workers = List.of();
    private final Map<String, FakeRequest> requests = new HashMap<>();
    private final Map<String, Classification> decisions = new HashMap<>();
    /** KV blocks in use per rank as the host's view reports them; a rank absent here reads as unknown. */
    final Map<WorkerWithDpRank, Long> kvInUse = new HashMap<>();
    int capacityReads;

    ThunderHarness(Map<String, ?> parameters) {
        this.config = config(parameters);
        RequestClassifierContext context = new RequestClassifierContext("model", 1, () -> {
            capacityReads++;
            return workers;
        }, clock, timers, worker -> kvInUse.containsKey(worker) ? OptionalLong.of(kvInUse.get(worker))
            : OptionalLong.empty());
        this.classifier = new ThunderAgentClassifier(config, context);
    }

    ThunderHarness() {
        this(Map.of());
    }

    static ThunderAgentConfig config(Map<String, ?> parameters) {
        try {
            ObjectNode node = JSON.valueToTree(parameters);
            return ThunderAgentConfig.from(new RequestClassifierParameters(node)
                .bind(ThunderAgentConfig.Parameters.class));
        } catch (ProviderException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    static WorkerWithDpRank w(long id) {
        return WorkerWithDpRank.of(id);
    }

    /** Worker {@code id} is live with this capacity in tokens (a new snapshot, as the host hands out). */
    ThunderHarness worker(long id, long capacityTokens) {
        return rank(w(id), capacityTokens);
    }

    ThunderHarness rank(WorkerWithDpRank worker, long capacityTokens) {
        cards.put(worker, OptionalLong.of(capacityTokens));
        return publish();
    }

    /** Worker {@code id} is live but publishes no capacity card. */
    ThunderHarness workerWithoutCard(long id) {
        cards.put(w(id), OptionalLong.empty());
        return publish();
    }

    ThunderHarness removeWorker(long id) {
        cards.remove(w(id));
        return publish();
    }

    private ThunderHarness publish() {
        List<RequestClassifierWorker> list = new ArrayList<>();
        cards.forEach((worker, blocks) -> list.add(new RequestClassifierWorker(worker, blocks)));
        workers = List.copyOf(list);
        return this;
    }

    FakeRequest submit(String id, String session, long tokens) {
        return submit(new FakeRequest(id, SessionContext.of(session), tokens, clock.nanoTime()));
    }

    FakeRequest submitFinal(String id, String session, long tokens) {
        return submit(new FakeRequest(id, new SessionContext(session, null, SessionContext.Finality.FINAL, null),
            tokens, clock.nanoTime()));
    }

    FakeRequest submit(FakeRequest request) {
        requests.put(request.requestId(), request);
        decisions.put(request.requestId(), classifier.classify(request));
        return request;
    }

    Classification decision(String id) {
        return decisions.get(id);
    }

    /** Admitted at classify or woken since. */
    boolean released(String id) {
        Classification decision = decisions.get(id);
        return decision.kind() == Classification.Kind.ADMIT || requests.get(id).woken();
    }

    boolean waiting(String id) {
        return decisions.get(id).kind() == Classification.Kind.PARK && !requests.get(id).woken();
    }

    WorkerWithDpRank target(String id) {
        return requests.get(id).workerSelectionTarget();
    }

    void sent(String id, long workerId) {
        classifier.onEvent(new ClassifyEvent.Sent(id, w(workerId)));
    }

    void completed(String id, long contextTokens) {
        classifier.onEvent(new ClassifyEvent.Completed(id, w(1), OptionalLong.of(contextTokens)));
    }

    void completedWithoutCount(String id) {
        classifier.onEvent(new ClassifyEvent.Completed(id, w(1), OptionalLong.empty()));
    }

    /** The client left: the request's wake-up is closed, then {@code Aborted} is delivered, as the router does. */
    void aborted(String id) {
        requests.get(id).end();
        classifier.onEvent(new ClassifyEvent.Aborted(id, Optional.empty(), Optional.empty()));
    }

    /** Moves the clock and runs the reconcile task if it is due. */
    void advance(Duration by) {
        clock.advance(by.toNanos());
        timers.runDue();
    }

    Program program(String session) {
        return classifier.state().programs.get(session);
    }

    PendingRequest request(String id) {
        return classifier.state().requests.get(id);
    }

    ThunderState state() {
        return classifier.state();
    }

    ThunderState.Telemetry telemetry() {
        return classifier.state().telemetry();
    }
}
