package dev.sluice.transport.demo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.replay.DecisionComparison;
import dev.sluice.core.replay.Difference;

/**
 * {@code sluice replay --json}: the replay's printout as JSON nodes, snake_case keys, times in nanoseconds since
 * the run's start. Stateless.
 */
public final class ReplayJson {
    private ReplayJson() {
    }

    /** One verified run: what was compared and every difference. */
    public static ObjectNode verified(JournalRecord.Header header, DecisionComparison.Result result) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("run", result.run());
        node.put("model", header.model());
        node.put("policy", header.policySource());
        node.put("records", result.records());
        node.put("decisions", result.decisions());
        node.put("dispatches", result.dispatches());
        node.put("simulated_ns", result.simulatedNs());
        node.put("wall_ns", result.wallNs());
        node.put("reproduced", result.differences().isEmpty());
        ArrayNode differences = node.putArray("differences");
        result.differences().forEach(d -> differences.add(difference(d)));
        ArrayNode undecided = node.putArray("undecided");
        result.undecided().forEach(undecided::add);
        return node;
    }

    /** One difference: where, and each differing field with both values (or both records whole). */
    public static ObjectNode difference(Difference d) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("subject", d.subject());
        node.put("lifecycle_id", d.lifecycleId());
        node.put("request_id", d.requestId());
        node.put("record", d.record());
        node.put("record_type", d.recordType());
        node.put("since_start_ns", d.sinceStartNs());
        ArrayNode fields = node.putArray("fields");
        d.fields().forEach(f -> fields.addObject().put("name", f.name()).put("recorded", f.recorded())
            .put("replayed", f.replayed()));
        node.put("recorded", d.recorded());
        node.put("replayed", d.replayed());
        node.put("text", d.toString());
        return node;
    }
}
