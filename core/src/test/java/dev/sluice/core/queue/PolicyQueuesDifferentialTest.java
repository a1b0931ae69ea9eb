package dev.sluice.core.queue;

import static dev.sluice.core.queue.QueueFixtures.MS;
import static dev.sluice.core.queue.QueueFixtures.limited;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random operation sequences (fixed seeds) applied to {@link PolicyQueues} and to {@link ReferencePolicyQueues}: every
 * result, expiry, counter, deficit and the cursor must agree after every step. The gate changes only together with
 * the recheck call the scheduler would make, which is the contract that makes parking invisible.
 */
class PolicyQueuesDifferentialTest {
    private static final int WORKERS = 4;
    private static final int SEQUENCES = 300;
    private static final int STEPS = 600;

    @Test
    void shouldMatchTheReferenceModelOverRandomOperationSequences() {
        for (int seed = 0; seed < SEQUENCES; seed++) {
            run(seed);
        }
    }

    private static PolicyProfile randomProfile(SplittableRandom random) {
        int n = 1 + random.nextInt(5);
        PolicyClassSpec[] specs = new PolicyClassSpec[n];
        for (int i = 0; i < n; i++) {
            QueuePolicy policy = random.nextBoolean() ? QueuePolicy.FCFS : QueuePolicy.WSPT;
            long quantum = random.nextInt(8) == 0 ? Long.MAX_VALUE / 3 : 1 + random.nextInt(40);
            int kind = random.nextInt(6);
            specs[i] = switch (kind) {
                case 0 -> limited("c" + i, policy, quantum, 3L, null, null);
                case 1 -> limited("c" + i, policy, quantum, null, 60L, 20L);
                case 2 -> limited("c" + i, policy, quantum, null, 0L, null);
                default -> limited("c" + i, policy, quantum, null, null, null);
            };
        }
        return QueueFixtures.profile(specs);
    }

    private static void run(int seed) {
        SplittableRandom random = new SplittableRandom(seed);
        PolicyProfile profile = randomProfile(random);
        int classes = profile.classes().size();
        PolicyQueues fast = new PolicyQueues(profile);
        ReferencePolicyQueues reference = new ReferencePolicyQueues(profile);
        QueueFixtures.FakeGate gate = new QueueFixtures.FakeGate().workers(WORKERS);
        List<QueueEntry> known = new ArrayList<>();
        List<QueueEntry> fastExpired = new ArrayList<>();
        List<QueueEntry> referenceExpired = new ArrayList<>();
        long now = 0;
        for (int step = 0; step < STEPS; step++) {
            String where = "seed " + seed + " step " + step;
            int op = random.nextInt(100);
            if (op < 45) {
                QueueEntry e = randomEntry(random, classes, now, step);
                known.add(e);
                int workers = random.nextInt(WORKERS + 1);
                assertEquals(reference.enqueue(e, workers, gate), fast.enqueue(e, workers, gate), where);
            } else if (op < 75) {
                now += random.nextInt(4) * 50 * MS;
                QueueEntry expected = reference.pollDispatchable(gate, now, referenceExpired::add);
                assertSame(expected, fast.pollDispatchable(gate, now, fastExpired::add), where);
                assertEquals(referenceExpired, fastExpired, where);
            } else if (op < 83 && !known.isEmpty()) {
                QueueEntry e = known.get(random.nextInt(known.size()));
                assertEquals(reference.remove(e), fast.remove(e), where);
            } else if (op < 93) {
                WorkerWithDpRank w = WorkerWithDpRank.of(random.nextInt(WORKERS));
                if (!gate.busy.remove(w)) {
                    gate.busy.add(w);
                }
                fast.onWorkerChanged(w);
            } else {
                String name = "c" + random.nextInt(classes);
                if (!gate.blockedClasses.remove(name)) {
                    gate.blockedClasses.add(name);
                }
                fast.onLoadChanged();
            }
            assertSameState(reference, fast, classes, where);
        }
    }

    private static QueueEntry randomEntry(SplittableRandom random, int classes, long now, int step) {
        long raw = 1 + random.nextInt(40);
        long cached = random.nextInt((int) raw + 1);
        long cost = random.nextInt(10) == 0 ? 1 + random.nextInt(400) : Math.max(1, raw - cached);
        long due = random.nextInt(3) == 0 ? now + random.nextInt(10) * 50 * MS : ClassifyRequest.NO_DEADLINE;
        double jump = random.nextInt(4) == 0 ? random.nextInt(5) * 0.05 : 0;
        WorkerWithDpRank lane = random.nextInt(3) == 0 ? WorkerWithDpRank.of(random.nextInt(WORKERS + 1)) : null;
        QueueFixtures.Req e = new QueueFixtures.Req("r" + step);
        e.setQueueSnapshot(random.nextInt(classes), raw, cached, cost, due, random.nextInt(3) == 0 ? 1 : 0, jump,
            now + random.nextInt(3) * MS, lane);
        return e;
    }

    private static void assertSameState(ReferencePolicyQueues reference, PolicyQueues fast, int classes,
                                        String where) {
        assertEquals(reference.size(), fast.size(), where);
        assertEquals(reference.roundCursor(), fast.roundCursor(), where);
        for (int c = 0; c < classes; c++) {
            assertEquals(reference.size(c), fast.size(c), where + " class " + c);
            assertEquals(reference.pendingRawIslTokens(c), fast.pendingRawIslTokens(c), where + " class " + c);
            assertEquals(reference.pendingCachedTokens(c), fast.pendingCachedTokens(c), where + " class " + c);
            assertEquals(reference.deficit(c), fast.deficit(c), where + " class " + c);
        }
    }
}
