package example;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifier;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A host that embeds sluice-core: one model, one worker, a classifier that admits, rejects and parks, a journal.
 * Run it with the JVM flags of core/EMBEDDING.md; it prints what happened to each request and where the journal is.
 */
public final class EmbeddedRouter {
    /** The router policy: one class, requests queue while the worker has 8192 prompt tokens in prefill. */
    private static final String POLICY = """
        default_policy_family: chat
        uncached_isl_buckets:
          - min_tokens: 0
            bucket: any
        policy_classes:
          - name: chat
            policy_family: chat
            cache_bucket: any
            queue_policy: fcfs
            quantum: 4096
            prefill_busy_threshold_frac: 1.0
        """;

    /**
     * Rejects prompts over 100 000 tokens, parks tenant {@code batch} until a request completes (or 5 s pass), admits
     * the rest. Its methods run on the router's scheduler thread, one at a time: no locks needed.
     */
    static final class Gate implements RequestClassifier {
        private final ArrayDeque<Wakeup> parked = new ArrayDeque<>();

        @Override
        public Classification classify(ClassifyRequest request) {
            if (request.inputTokens() > 100_000) {
                return Classification.reject(AdmissionError.of(ErrorClass.RATE_LIMITED)
                    .publicMessage("Prompt too large for this tenant's budget"));
            }
            if ("batch".equals(request.tenant())) {
                parked.add(request.wakeup());
                return Classification.park(request, request.ingressAt() + TimeUnit.SECONDS.toNanos(5),
                    AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED));
            }
            return Classification.admit(request);
        }

        @Override
        public void onEvent(ClassifyEvent event) {
            if (event instanceof ClassifyEvent.Completed && !parked.isEmpty()) {
                parked.poll().admit();
            }
        }
    }

    /** One request's outcome: its worker, or the error to answer. Called on the scheduler thread: never block. */
    record Outcome(CompletableFuture<WorkerWithDpRank> worker, CompletableFuture<AdmissionError> error)
        implements AdmissionListener {
        Outcome() {
            this(new CompletableFuture<>(), new CompletableFuture<>());
        }

        @Override
        public void onDispatched(long lifecycleId, WorkerWithDpRank dispatchedTo) {
            worker.complete(dispatchedTo);
        }

        @Override
        public void onRejected(long lifecycleId, AdmissionError rejection) {
            error.complete(rejection);
        }

        /** Waits for the decision (the host's request thread; a virtual thread parks cheaply). */
        String await() {
            CompletableFuture.anyOf(worker, error).join();
            return worker.isDone() ? "dispatched to worker " + worker.join().workerId()
                : "rejected " + error.join().httpStatus(529) + " " + error.join().reason();
        }
    }

    public static void main(String[] args) throws Exception {
        Path journalDir = Path.of(args.length > 0 ? args[0] : "embedded-journal");
        PolicyProfile profile = RouterPolicyLoader.parse(POLICY, "inline policy")
            .profileFor("demo-model", OptionalDouble.empty(), QueuePolicy.FCFS);
        RouterContext context = new RouterContext().model("demo-model").profile(profile)
            .classifierFactory(classifierContext -> new Gate());
        JournalWriter journal = JournalWriter.open(new JournalContext(journalDir), JournalHeader.of(context,
            "inline policy", POLICY, "gate", OptionalDouble.empty(), QueuePolicy.FCFS));
        context.observer(journal);
        try (ModelRouter router = ModelRouter.start(context)) {
            // A worker: one engine, rank 0, a forward pass of 8192 tokens, 4096 KV blocks.
            router.workerJoined(WorkerWithDpRank.of(0), 8192, OptionalLong.of(4096));

            Outcome small = new Outcome();
            long smallId = router.submit(AdmissionRequest.builder("small").inputTokens(512).build(), small);
            System.out.println("small: " + small.await());

            Outcome huge = new Outcome();
            router.submit(AdmissionRequest.builder("huge").inputTokens(200_000).build(), huge);
            System.out.println("huge: " + huge.await());

            Outcome batch = new Outcome();
            long batchId = router.submit(AdmissionRequest.builder("batch-1").inputTokens(256).tenant("batch")
                .build(), batch);
            System.out.println("batch-1: parked: " + !batch.worker().isDone());

            // The host sends "small" to its worker; the first token, then the end, are reported to the router.
            router.responding(smallId);
            router.completed(smallId);
            System.out.println("batch-1: after small completed, " + batch.await());
            router.responding(batchId);
            router.completed(batchId);
        } finally {
            journal.close();
        }
        System.out.println("journal: " + journalDir.toAbsolutePath());
    }
}
