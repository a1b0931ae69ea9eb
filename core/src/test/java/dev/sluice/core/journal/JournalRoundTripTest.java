package dev.sluice.core.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.testing.SteppedRouter;
import dev.sluice.core.testing.TestClocks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every record type goes through the Chronicle journal and comes back with every field. */
class JournalRoundTripTest {
    @TempDir
    Path dir;

    private List<JournalRecord> recordScenario() throws JournalException {
        SteppedRouter r;
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalFixtures.header(7L))) {
            r = JournalFixtures.router(journal);
            JournalFixtures.scenario(r);
            r.close();
            assertEquals(0, journal.recordsDropped());
            assertTrue(journal.recordsWritten() > 20, "written " + journal.recordsWritten());
        }
        try (JournalReader reader = JournalReader.open(dir)) {
            List<JournalRecord> records = reader.readAll();
            assertEquals(0, reader.undecodable());
            return records;
        }
    }

    /**
     * With scheduler_idle combine the duty cycle, and so the writer, moves between threads, one at a time: the
     * journal keeps every record, while the thread that wrote before is still alive.
     */
    @Test
    void shouldKeepRecordingWhenTheDutyCycleMovesToAnotherThread() throws Exception {
        long written;
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir), JournalFixtures.header(7L))) {
            SteppedRouter r = JournalFixtures.router(journal);
            r.router.workerJoined(WorkerWithDpRank.of(1), 2048, OptionalLong.empty());
            r.step();
            long before = journal.recordsWritten();
            long[] lifecycle = new long[1];
            Thread other = Thread.ofPlatform().start(() -> lifecycle[0] = r.submit("a-1", 100));
            other.join();
            r.router.completed(lifecycle[0], 100);
            r.step();
            r.close();
            assertEquals(0, journal.recordsDropped());
            assertTrue(journal.recordsWritten() > before + 2, "written " + journal.recordsWritten());
            written = journal.recordsWritten();
        }
        try (JournalReader reader = JournalReader.open(dir)) {
            assertTrue(reader.readAll().size() >= written, "read back as many as written");
        }
    }

    /**
     * A record goes into the hourly file of its own time (the router's clock since the journal opened), so two hours
     * of the router's manual clock start a new file, whatever the wall clock did meanwhile; the reader reads on
     * across it, in order.
     */
    @Test
    void shouldFileEachRecordInTheHourOfItsOwnTime() throws Exception {
        try (JournalWriter journal = JournalWriter.open(new JournalContext(dir),
                JournalFixtures.header(TestClocks.START_NS))) {
            SteppedRouter r = JournalFixtures.router(journal);
            r.router.workerJoined(WorkerWithDpRank.of(1), 2048, OptionalLong.empty());
            r.step();
            r.advance(Duration.ofHours(2));
            long later = r.submit("a-1", 100);
            r.router.completed(later, 100);
            r.step();
            r.close();
            assertEquals(0, journal.recordsDropped());
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(2, files.filter(p -> p.toString().endsWith(".cq4")).count(), "one file for each hour");
        }
        try (JournalReader reader = JournalReader.open(dir)) {
            List<JournalRecord> records = reader.readAll();
            assertEquals(0, reader.undecodable());
            assertEquals(List.of(RecordType.HEADER, RecordType.WORKER_JOINED), records.subList(0, 2).stream()
                .map(JournalRecord::type).toList());
            JournalRecord completed = records.stream().filter(rec -> rec.type() == RecordType.COMPLETED)
                .findFirst().orElseThrow();
            assertEquals(TestClocks.START_NS + Duration.ofHours(2).toNanos(), completed.timeNs());
            assertTrue(reader.corruptions().isEmpty(), reader.corruptions().toString());
        }
    }

    /** The clock the journal gives Chronicle follows the records' times from the opening, and never goes back. */
    @Test
    void shouldTimeRecordsFromTheOpeningAndNeverGoBack() {
        JournalWriter.RecordClock clock = new JournalWriter.RecordClock(1_000_000L, 5_000L);
        assertEquals(1_000_000L, clock.currentTimeMillis());
        clock.at(5_000L + Duration.ofMinutes(90).toNanos());
        assertEquals(1_000_000L + Duration.ofMinutes(90).toMillis(), clock.currentTimeMillis());
        clock.at(5_000L + Duration.ofMinutes(30).toNanos());
        assertEquals(1_000_000L + Duration.ofMinutes(90).toMillis(), clock.currentTimeMillis(), "not back");
    }

    @Test
    void shouldReadBackEveryRecordType() throws JournalException {
        List<JournalRecord> records = recordScenario();
        Set<RecordType> seen = EnumSet.noneOf(RecordType.class);
        records.forEach(rec -> seen.add(rec.type()));
        assertEquals(EnumSet.allOf(RecordType.class), seen);
    }

    @Test
    void shouldKeepTheEnginesKvEventsForReplay() throws JournalException {
        List<dev.sluice.core.kv.KvEvent> events = recordScenario().stream()
            .filter(rec -> rec instanceof JournalRecord.KvEventRecord)
            .map(rec -> ((JournalRecord.KvEventRecord) rec).event()).toList();
        assertEquals(3, events.size());
        dev.sluice.core.kv.KvEvent.Stored stored = assertInstanceOf(dev.sluice.core.kv.KvEvent.Stored.class,
            events.get(0));
        assertEquals(WorkerWithDpRank.of(1), stored.worker());
        assertTrue(stored.hasParent());
        assertEquals(77L, stored.parentSequenceHash());
        assertEquals(List.of(11L, 12L), java.util.Arrays.stream(stored.sequenceHashes()).boxed().toList());
        assertEquals(List.of(21L, 22L), java.util.Arrays.stream(stored.localHashes()).boxed().toList());
        dev.sluice.core.kv.KvEvent.Removed removed = assertInstanceOf(dev.sluice.core.kv.KvEvent.Removed.class,
            events.get(1));
        assertEquals(1, removed.eventId());
        assertEquals(12L, removed.sequenceHashes()[0]);
        assertEquals(new WorkerWithDpRank(2, 1),
            assertInstanceOf(dev.sluice.core.kv.KvEvent.Cleared.class, events.get(2)).worker());
    }

    @Test
    void shouldKeepTheHeaderWithThePolicyAndItsFingerprint() throws JournalException {
        JournalRecord.Header header = assertInstanceOf(JournalRecord.Header.class, recordScenario().get(0));
        assertEquals(JournalHeader.FORMAT_VERSION, header.formatVersion());
        assertEquals(7L, header.timeNs());
        assertEquals("llama", header.model());
        assertEquals(JournalFixtures.POLICY, header.policyText());
        assertEquals(JournalHeader.hex(JournalHeader.sha256(JournalFixtures.POLICY)), header.fingerprint());
        assertTrue(header.fingerprintMatches());
        assertEquals(529, header.overloadStatus());
        assertTrue(Double.isNaN(header.fallbackThreshold()));
    }

    @Test
    void shouldKeepArrivalHeadersAndClassifierOverrides() throws JournalException {
        List<JournalRecord> records = recordScenario();
        JournalRecord.Arrived a = first(records, JournalRecord.Arrived.class);
        JournalRecord.Request request = a.request();
        assertEquals("a-1", request.requestId());
        assertEquals("client-a", request.clientRequestId());
        assertEquals(300, request.inputTokens());
        assertEquals("acme", request.tenant());
        assertEquals("interactive", request.policyClass());
        assertEquals("s-1", request.sessionId());
        assertEquals("s-0", request.parentSessionId());
        assertEquals(SessionContext.Finality.FINAL, request.finality());
        assertEquals(SessionContext.InputTrigger.TOOL_RESULT, request.inputTrigger());
        assertEquals(2, request.strictPriority());
        assertEquals(1.5, request.priorityJump());
        assertNull(request.pinnedWorker());
        JournalRecord.Classified classified = first(records, JournalRecord.Classified.class);
        assertEquals(Classification.Kind.ADMIT, classified.decision());
        assertEquals(request.ingressAt() + 5_000_000_000L, classified.overrides().dueAt());
        assertEquals(77, classified.overrides().costOverride());
        assertEquals(WorkerWithDpRank.of(2), classified.overrides().target());
        JournalRecord.Enqueued enqueued = first(records, JournalRecord.Enqueued.class);
        assertEquals("default", enqueued.policyClass());
        assertEquals(0, enqueued.classIndex());
        assertEquals(77, enqueued.costTokens());
        assertEquals(2, enqueued.strictPriority());
        assertEquals(WorkerWithDpRank.of(1), first(records, JournalRecord.Dispatched.class).worker());
        assertEquals(420, first(records, JournalRecord.Completed.class).contextTokens());
    }

    @Test
    void shouldKeepRejectionsRefusalsAbortsAndWorkers() throws JournalException {
        List<JournalRecord> records = recordScenario();
        JournalRecord.Rejected rejected = first(records, JournalRecord.Rejected.class);
        assertEquals(RequestView.Stage.CLASSIFYING, rejected.stage());
        assertEquals(-1, rejected.classIndex(), "rejected by the classifier: it never reached a class");
        JournalRecord.Error error = rejected.error();
        assertEquals(ErrorClass.RATE_LIMITED, error.errorClass());
        assertEquals("tenant_quota", error.reason());
        assertEquals(429, error.httpStatus());
        assertEquals(529, error.overloadStatus());
        assertEquals("Tenant quota exhausted", error.publicMessage());
        assertEquals("tenant acme used 100 of 100", error.diagnostic());
        assertEquals(3_000_000_000L, error.retryAfterNanos());
        JournalRecord.Refused refused = first(records, JournalRecord.Refused.class);
        assertEquals("d-1", refused.request().requestId());
        assertEquals("client-d", refused.request().clientRequestId());
        assertNull(records.stream().filter(rec -> rec instanceof JournalRecord.Arrived arrived
            && arrived.request().requestId().equals("b-1")).map(rec -> ((JournalRecord.Arrived) rec).request())
            .findFirst().orElseThrow().clientRequestId(), "no label sent: none read back");
        assertEquals("duplicate_request_id", refused.error().reason());
        assertEquals(409, refused.error().httpStatus());
        JournalRecord.Aborted aborted = first(records, JournalRecord.Aborted.class);
        assertEquals("java.util.concurrent.CancellationException", aborted.causeType());
        assertEquals("client left", aborted.causeMessage());
        assertEquals(RequestView.Stage.DISPATCHED, aborted.stage());
        JournalRecord.WorkerJoined second = records.stream().filter(JournalRecord.WorkerJoined.class::isInstance)
            .map(JournalRecord.WorkerJoined.class::cast).toList().get(1);
        assertEquals(new WorkerWithDpRank(2, 1), second.worker());
        assertEquals(1024, second.maxNumBatchedTokens());
        assertEquals(-1, second.totalKvBlocks());
        assertEquals(new WorkerWithDpRank(2, 1), first(records, JournalRecord.WorkerLeft.class).worker());
        long completedWithoutTokens = records.stream().filter(JournalRecord.Completed.class::isInstance)
            .map(JournalRecord.Completed.class::cast).filter(c -> c.contextTokens() == -1).count();
        assertEquals(1, completedWithoutTokens);
    }

    @Test
    void shouldEncodeInMemoryExactlyAsOnDisk() throws JournalException {
        List<JournalRecord> onDisk = recordScenario();
        JournalCapture capture = new JournalCapture(529);
        try (SteppedRouter r = new SteppedRouter(JournalFixtures.classifier(),
            new dev.sluice.core.router.RouterContext().model("llama").observer(capture))) {
            JournalFixtures.scenario(r);
        }
        // The header and the clean close are the file's alone.
        JournalRecord.Closed closed = assertInstanceOf(JournalRecord.Closed.class, onDisk.get(onDisk.size() - 1));
        assertEquals(onDisk.get(onDisk.size() - 2).timeNs(), closed.timeNs(), "stamped with the last record's time");
        List<String> disk = onDisk.subList(1, onDisk.size() - 1).stream().map(JournalRoundTripTest::withoutIds)
            .toList();
        List<String> memory = capture.records().stream().map(JournalRoundTripTest::withoutIds).toList();
        assertEquals(disk, memory);
    }

    /** Lifecycle ids and times differ between two routers in one JVM; everything else must not. */
    private static String withoutIds(JournalRecord record) {
        return record.toString().replaceAll("lifecycleId=\\d+", "lifecycleId=_").replaceAll("(timeNs|ingressAt)=\\d+",
            "$1=_").replaceAll("dueAt=\\d+", "dueAt=_");
    }

    static <T extends JournalRecord> T first(List<JournalRecord> records, Class<T> type) {
        return records.stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow(
            () -> new AssertionError("no " + type.getSimpleName() + " in " + records));
    }
}
