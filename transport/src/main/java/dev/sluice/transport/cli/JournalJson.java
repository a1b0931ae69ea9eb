package dev.sluice.transport.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.JournalStats;
import dev.sluice.core.audit.Lifecycle;
import dev.sluice.core.audit.RequestFigures;
import dev.sluice.core.journal.JournalRecord;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The {@code --json} documents of {@code journal show} and {@code journal stats}: one JSON object each, snake_case
 * keys in a fixed order, times in milliseconds (from the request's ingress for events), instants in ISO-8601 UTC,
 * absent values as {@code null}. The figures are {@link RequestFigures}'s, as the text tables print them. Stateless.
 */
final class JournalJson {
    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JournalJson() {
    }

    static void print(ObjectNode document, PrintWriter out) {
        try {
            out.println(MAPPER.writeValueAsString(document));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serializes", e);
        }
    }

    /** A run's index and header fields into {@code node}; returns it. */
    static ObjectNode run(ObjectNode node, JournalRun run) {
        node.put("run", run.index());
        JournalRecord.Header h = run.header();
        if (h == null) {
            node.putNull("header");
            return node;
        }
        node.putObject("header").put("model", h.model()).put("started_at", run.wallClock(h.timeNs()).toString())
            .put("format_version", h.formatVersion()).put("policy_source", h.policySource())
            .put("policy_sha256", h.fingerprint()).put("policy_sha256_matches", h.fingerprintMatches())
            .put("classifier", h.classifier()).put("overload_status", h.overloadStatus());
        node.put("closed", run.closed());
        return node;
    }

    /** One request: what arrived, its figures and its events. */
    static void lifecycle(ObjectNode node, JournalRun run, Lifecycle lifecycle) {
        JournalRecord.Request r = lifecycle.request();
        long origin = r != null ? r.ingressAt() : lifecycle.records().get(0).timeNs();
        RequestFigures.Facts facts = lifecycle.facts(run);
        node.put("request_id", lifecycle.requestId()).put("lifecycle_id", lifecycle.id())
            .put("arrived_at", run.wallClock(origin).toString());
        if (r != null) {
            node.put("client_request_id", r.clientRequestId()).put("input_tokens", r.inputTokens())
                .put("class_header", r.policyClass()).put("tenant", r.tenant())
                .put("session_id", r.sessionId()).put("parent_session_id", r.parentSessionId());
        }
        node.put("policy_class", facts.policyClass().equals(RequestFigures.NO_CLASS) ? null : facts.policyClass())
            .put("outcome", lifecycle.outcome()).put("reason", facts.reason());
        putStatus(node, facts.status());
        putMs(node, "queue_wait_ms", facts.queueWaitNs());
        putMs(node, "ttft_ms", facts.ttftNs());
        ArrayNode events = node.putArray("events");
        for (JournalRecord record : lifecycle.records()) {
            event(events.addObject(), record, origin);
        }
    }

    private static void event(ObjectNode e, JournalRecord record, long origin) {
        e.put("type", record.type().name().toLowerCase(Locale.ROOT)).put("at_ms", (record.timeNs() - origin) / 1e6);
        switch (record) {
            case JournalRecord.Classified c -> {
                e.put("decision", c.decision().name().toLowerCase(Locale.ROOT))
                    .put("class_override", c.overrides().policyClass());
            }
            case JournalRecord.Enqueued q -> e.put("policy_class", q.policyClass()).put("cost_tokens", q.costTokens())
                .put("cached_tokens", q.cachedTokens());
            case JournalRecord.Dispatched d -> e.put("worker", d.worker().workerId())
                .put("dp_rank", d.worker().dpRank());
            case JournalRecord.Completed c -> e.put("context_tokens", c.contextTokens());
            case JournalRecord.Rejected x -> error(e.put("stage", stage(x.stage())), x.error());
            case JournalRecord.Refused x -> error(e, x.error());
            case JournalRecord.Aborted x -> e.put("stage", stage(x.stage())).put("cause_type", x.causeType())
                .put("cause_message", x.causeMessage());
            default -> {
            }
        }
    }

    private static void error(ObjectNode e, JournalRecord.Error error) {
        e.put("reason", error.reason()).put("status", error.httpStatus()).put("message", error.publicMessage())
            .put("diagnostic", error.diagnostic());
        putMs(e, "retry_after_ms", error.retryAfterNanos() > 0 ? error.retryAfterNanos() : -1);
    }

    /** The {@code journal stats} document. */
    static ObjectNode stats(java.util.List<JournalRun> runs, JournalStats stats) {
        ObjectNode document = MAPPER.createObjectNode();
        ArrayNode jsonRuns = document.putArray("runs");
        runs.forEach(run -> run(jsonRuns.addObject(), run));
        document.put("lifecycles", stats.lifecycles());
        ArrayNode classes = document.putArray("classes");
        stats.byClass().forEach((name, f) -> figures(classes.addObject().put("class", name), f));
        figures(document.putObject("total"), stats.total());
        ArrayNode rejections = document.putArray("rejections");
        stats.rejectionsByReason().forEach((key, byClass) -> {
            ObjectNode reason = rejections.addObject();
            reasonAndStatus(reason, key);
            reason.put("count", byClass.values().stream().mapToLong(Long::longValue).sum());
            ObjectNode counts = reason.putObject("by_class");
            byClass.forEach(counts::put);
        });
        ArrayNode definitions = document.putArray("definitions");
        RequestFigures.DEFINITIONS.forEach(definitions::add);
        return document;
    }

    private static void figures(ObjectNode node, RequestFigures.ClassFigures f) {
        node.put("arrived", f.arrived()).put("queued", f.queued()).put("admitted", f.admitted())
            .put("deferred", f.deferred()).put("parked", f.parked());
        for (RequestFigures.Outcome outcome : RequestFigures.Outcome.values()) {
            node.put(outcome.word(), f.count(outcome));
        }
        latency(node.putObject("queue_wait_ms"), f.queueWaitUs());
        latency(node.putObject("ttft_ms"), f.ttftUs());
        ArrayNode rejections = node.putArray("rejections");
        for (Map.Entry<String, Long> e : f.rejections().entrySet()) {
            reasonAndStatus(rejections.addObject(), e.getKey()).put("count", e.getValue());
        }
    }

    private static void latency(ObjectNode node, Histogram us) {
        node.put("count", us.getTotalCount());
        for (String[] p : new String[][] {{"p50", "50"}, {"p99", "99"}, {"max", "100"}}) {
            if (us.getTotalCount() == 0) {
                node.putNull(p[0]);
            } else {
                node.put(p[0], us.getValueAtPercentile(Double.parseDouble(p[1])) / 1000.0);
            }
        }
    }

    /** {@code queue_rejected (529)} as {@code "reason": "queue_rejected", "status": 529}. */
    private static ObjectNode reasonAndStatus(ObjectNode node, String key) {
        int open = key.lastIndexOf(" (");
        node.put("reason", key.substring(0, open));
        node.put("status", Integer.parseInt(key.substring(open + 2, key.length() - 1)));
        return node;
    }

    private static void putStatus(ObjectNode node, int status) {
        if (status > 0) {
            node.put("status", status);
        } else {
            node.putNull("status");
        }
    }

    private static void putMs(ObjectNode node, String key, long ns) {
        if (ns >= 0) {
            node.put(key, ns / 1e6);
        } else {
            node.putNull(key);
        }
    }

    private static String stage(dev.sluice.core.host.RequestView.Stage stage) {
        return stage.name().toLowerCase(Locale.ROOT);
    }
}
