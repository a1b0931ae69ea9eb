package dev.sluice.transport.metrics;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.router.RouterStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.HdrHistogram.Histogram;

/**
 * Renders {@link RouterMetrics} in the Prometheus text exposition format (version 0.0.4). The router-queue
 * gauges also appear under Dynamo's names, so dashboards built for Dynamo's frontend keep working.
 */
public final class PrometheusText {
    /** The content type of the exposition. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {
    }

    /** The exposition of all routers' metrics. */
    public static String render(List<RouterMetrics> routers) {
        StringBuilder out = new StringBuilder(4096);
        header(out, "sluice_requests_arrived_total", "counter", "Requests that reached admission.");
        routers.forEach(m -> sample(out, "sluice_requests_arrived_total", model(m), m.arrived.get()));
        header(out, "sluice_requests_completed_total", "counter", "Requests that completed.");
        routers.forEach(m -> sample(out, "sluice_requests_completed_total", model(m), m.completed.get()));
        header(out, "sluice_requests_aborted_total", "counter", "Requests aborted after admission started.");
        routers.forEach(m -> sample(out, "sluice_requests_aborted_total", model(m), m.aborted.get()));
        header(out, "sluice_requests_preempted_total", "counter", "Dispatched requests that had not answered yet, "
            + "preempted for higher-priority work (also counted as aborted).");
        routers.forEach(m -> sample(out, "sluice_requests_preempted_total", model(m), m.preempted.get()));
        header(out, "sluice_untrusted_headers_total", "counter", "Priority, policy-class, session and tenant"
            + " headers ignored because the client is not a trusted source.");
        routers.forEach(m -> sample(out, "sluice_untrusted_headers_total", model(m), m.untrustedHeaders.get()));
        header(out, "sluice_policy_reloads_total", "counter", "Router-policy reloads (SIGHUP, --watch-config): "
            + "applied, or refused as invalid while the old policy served on.");
        for (RouterMetrics m : routers) {
            sample(out, "sluice_policy_reloads_total", model(m) + ",result=\"applied\"", m.reloadsApplied.get());
            sample(out, "sluice_policy_reloads_total", model(m) + ",result=\"refused\"", m.reloadsRefused.get());
        }
        header(out, "sluice_requests_rejected_total", "counter", "Requests rejected, by reason and HTTP status.");
        for (RouterMetrics m : routers) {
            new TreeMap<>(m.rejections).forEach((reason, outcome) -> sample(out, "sluice_requests_rejected_total",
                model(m) + ",reason=\"" + escape(reason) + "\",status=\"" + outcome.status + "\"",
                outcome.count.get()));
        }
        classGauges(out, routers);
        tenantGauges(out, routers);
        histograms(out, routers);
        liveGauges(out, routers);
        overruns(out, routers);
        classifierTimeouts(out, routers);
        journal(out, routers);
        workerGauges(out, routers);
        workerHealth(out, routers);
        engineTelemetry(out, routers);
        kvEvents(out, routers);
        return out.toString();
    }

    private static void kvEvents(StringBuilder out, List<RouterMetrics> routers) {
        kvCounter(out, routers, "sluice_kv_event_batches_total", "KV-event batches received from the worker's "
            + "engine, live or replayed.", KvEventMetrics.Worker::batches);
        kvCounter(out, routers, "sluice_kv_events_total", "KV events passed to the router.",
            KvEventMetrics.Worker::events);
        header(out, "sluice_kv_event_sequence", "gauge", "The engine's sequence number of the last KV-event batch "
            + "handled (-1 before the first).");
        kvSamples(out, routers, "sluice_kv_event_sequence", null, KvEventMetrics.Worker::sequence);
        kvCounter(out, routers, "sluice_kv_event_gaps_total", "Gaps in the engine's KV-event sequence numbers: "
            + "batches lost.", KvEventMetrics.Worker::gaps);
        kvCounter(out, routers, "sluice_kv_event_replays_total", "Gaps filled from the engine's replay socket.",
            KvEventMetrics.Worker::replays);
        header(out, "sluice_kv_events_dropped_total", "counter", "KV events or batches that could not be used.");
        for (KvEventMetrics.Drop reason : KvEventMetrics.Drop.values()) {
            kvSamples(out, routers, "sluice_kv_events_dropped_total", reason.label(), w -> w.dropped(reason));
        }
        header(out, "sluice_kv_events_ignored_total", "counter", "KV events left out on purpose: another medium, "
            + "LoRA or extra hash keys, another KV-cache group.");
        for (KvEventMetrics.Ignore reason : KvEventMetrics.Ignore.values()) {
            kvSamples(out, routers, "sluice_kv_events_ignored_total", reason.label(), w -> w.ignored(reason));
        }
        header(out, "sluice_kv_event_resets_total", "counter", "Times the router forgot the worker's cache: "
            + "an unrecoverable gap, an engine restart, the engine's own clear.");
        for (KvEventMetrics.Reset reason : KvEventMetrics.Reset.values()) {
            kvSamples(out, routers, "sluice_kv_event_resets_total", reason.label(), w -> w.resets(reason));
        }
    }

    private static void kvCounter(StringBuilder out, List<RouterMetrics> routers, String name, String help,
                                  ToLongFunction<KvEventMetrics.Worker> value) {
        header(out, name, "counter", help);
        kvSamples(out, routers, name, null, value);
    }

    private static void kvSamples(StringBuilder out, List<RouterMetrics> routers, String name, String reason,
                                  ToLongFunction<KvEventMetrics.Worker> value) {
        for (RouterMetrics m : routers) {
            for (Map.Entry<Long, KvEventMetrics.Worker> e : m.kvEvents.workers.entrySet()) {
                String labels = model(m) + ",worker_id=\"" + e.getKey() + "\""
                    + (reason == null ? "" : ",reason=\"" + reason + "\"");
                sample(out, name, labels, value.applyAsLong(e.getValue()));
            }
        }
    }

    private static void workerHealth(StringBuilder out, List<RouterMetrics> routers) {
        header(out, "sluice_workers_unhealthy", "gauge", "Workers marked unhealthy after consecutive engine "
            + "failures: out of the router until a probe of their engine succeeds.");
        routers.forEach(m -> sample(out, "sluice_workers_unhealthy", model(m), m.health.unhealthy.get()));
        header(out, "sluice_worker_health_transitions_total", "counter", "Workers turning unhealthy (to=unhealthy) "
            + "and recovering (to=healthy).");
        for (RouterMetrics m : routers) {
            for (Map.Entry<Long, WorkerHealthMetrics.Transitions> e : m.health.transitions.entrySet()) {
                String labels = model(m) + ",worker_id=\"" + e.getKey() + "\",to=\"";
                sample(out, "sluice_worker_health_transitions_total", labels + "unhealthy\"",
                    e.getValue().toUnhealthy.get());
                sample(out, "sluice_worker_health_transitions_total", labels + "healthy\"",
                    e.getValue().toHealthy.get());
            }
        }
    }

    private static void classGauges(StringBuilder out, List<RouterMetrics> routers) {
        String[][] gauges = {
            {"sluice_queue_pending_requests", "dynamo_frontend_router_queue_pending_requests", "Requests waiting in "
                + "the policy-class queue."},
            {"sluice_queue_pending_isl_tokens", "dynamo_frontend_router_queue_pending_isl_tokens", "Input tokens of "
                + "the requests waiting in the policy-class queue."},
            {"sluice_queue_pending_cached_tokens", "dynamo_frontend_router_queue_pending_cached_tokens", "Cached "
                + "tokens of the requests waiting in the policy-class queue."}};
        for (int field = 0; field < gauges.length; field++) {
            for (int alias = 0; alias < 2; alias++) {
                header(out, gauges[field][alias], "gauge", gauges[field][2]);
                for (RouterMetrics m : routers) {
                    ClassMetrics table = m.classes;
                    for (int c = 0; c < table.names.size(); c++) {
                        sample(out, gauges[field][alias], classLabels(m, table, c),
                            table.values.get(c * RouterMetrics.FIELDS + field));
                    }
                }
            }
        }
        String[][] counters = {
            {"sluice_queue_enqueued_total", String.valueOf(RouterMetrics.ENQUEUED),
                "Requests admitted into the class."},
            {"sluice_queue_dispatched_total", String.valueOf(RouterMetrics.DISPATCHED), "Requests dispatched."},
            {"sluice_queue_rejected_total", String.valueOf(RouterMetrics.REJECTED), "Requests of the class rejected."},
            {"sluice_queue_expired_total", String.valueOf(RouterMetrics.EXPIRED), "Queued requests whose deadline "
                + "passed."}};
        for (String[] counter : counters) {
            header(out, counter[0], "counter", counter[2]);
            int field = Integer.parseInt(counter[1]);
            for (RouterMetrics m : routers) {
                ClassMetrics table = m.classes;
                for (int c = 0; c < table.names.size(); c++) {
                    sample(out, counter[0], classLabels(m, table, c),
                        table.values.get(c * RouterMetrics.FIELDS + field));
                }
            }
        }
    }

    /** Tenant fairness, only for the classes that report it: no label per tenant, only ranks of the top shares. */
    private static void tenantGauges(StringBuilder out, List<RouterMetrics> routers) {
        header(out, "sluice_queue_tenants_active", "gauge", "Tenants of a tenant-fair class with a request queued "
            + "or in service.");
        for (RouterMetrics m : routers) {
            new TreeMap<>(m.tenantGauges).forEach((name, g) -> sample(out, "sluice_queue_tenants_active",
                tenantLabels(m, name), g.get(0)));
        }
        header(out, "sluice_queue_tenant_top_share", "gauge", "Share of a tenant-fair class's tracked service "
            + "(weighted tokens) held by its rank-th most served tenant.");
        for (RouterMetrics m : routers) {
            new TreeMap<>(m.tenantGauges).forEach((name, g) -> {
                for (int k = 0; k < RouterMetrics.TOP_TENANTS; k++) {
                    out.append("sluice_queue_tenant_top_share{").append(tenantLabels(m, name)).append(",rank=\"")
                        .append(k + 1).append("\"} ").append(format(Double.longBitsToDouble(g.get(1 + k))))
                        .append('\n');
                }
            });
        }
    }

    private static String tenantLabels(RouterMetrics m, String className) {
        return model(m) + ",policy_class=\"" + escape(className) + "\"";
    }

    private static void histograms(StringBuilder out, List<RouterMetrics> routers) {
        header(out, "sluice_queue_wait_seconds", "histogram", "Time from entering the policy-class queue to "
            + "dispatch.");
        for (RouterMetrics m : routers) {
            ClassMetrics table = m.classes;
            for (int c = 0; c < table.queueWait.length; c++) {
                histogram(out, "sluice_queue_wait_seconds", classLabels(m, table, c), table.queueWait[c].snapshot());
            }
        }
        header(out, "sluice_admission_decision_seconds", "histogram", "Time from ingress to the admission decision "
            + "(admitted into a queue, or rejected); includes deferrals and parks.");
        routers.forEach(m -> histogram(out, "sluice_admission_decision_seconds", model(m), m.decision.snapshot()));
    }

    private static void liveGauges(StringBuilder out, List<RouterMetrics> routers) {
        stat(out, routers, "sluice_live_requests", "gauge", "Lifecycles in progress.", RouterStatistics::live);
        stat(out, routers, "sluice_deferrals_in_progress", "gauge",
            "Classifications waiting in a continuation on a virtual thread.", RouterStatistics::deferralsRunning);
        stat(out, routers, "sluice_parked_requests", "gauge",
            "Classifications parked until a wake-up or deadline (no thread).", RouterStatistics::parkedNow);
    }

    private static void overruns(StringBuilder out, List<RouterMetrics> routers) {
        stat(out, routers, "sluice_scheduler_overruns_total", "counter", "Scheduler duty cycles that ran past the "
            + "watchdog's threshold: a plugin or observer blocked the model's scheduler.",
            RouterStatistics::dutyCycleOverruns);
        stat(out, routers, "sluice_scheduler_errors_total", "counter", "Scheduler messages or duty cycles whose "
            + "handling threw: each failed only the request it was about, and the scheduler served on.",
            RouterStatistics::schedulerErrors);
    }

    private static void classifierTimeouts(StringBuilder out, List<RouterMetrics> routers) {
        stat(out, routers, "sluice_classifier_timeouts_total", "counter", "Requests answered 504 classifier_timeout: "
            + "their classification (a deferral, a park or a blocked classify call) outlasted "
            + "--classification-timeout.", RouterStatistics::classifierTimeouts);
    }

    /** One metric read from each router's latest statistics (routers without statistics yet are left out). */
    private static void stat(StringBuilder out, List<RouterMetrics> routers, String name, String type, String help,
                             ToLongFunction<RouterStatistics> value) {
        header(out, name, type, help);
        for (RouterMetrics m : routers) {
            RouterStatistics stats = m.stats.get();
            if (stats != null) {
                sample(out, name, model(m), value.applyAsLong(stats));
            }
        }
    }

    private static void journal(StringBuilder out, List<RouterMetrics> routers) {
        header(out, "sluice_journal_available", "gauge", "1 while the admission journal records; 0 once it failed "
            + "(unwritable, full, deleted), until restart.");
        routers.forEach(m -> journalSample(out, "sluice_journal_available", m, j -> j.available() ? 1 : 0));
        header(out, "sluice_journal_records_total", "counter", "Records appended to the admission journal.");
        routers.forEach(m -> journalSample(out, "sluice_journal_records_total", m, JournalWriter::recordsWritten));
        header(out, "sluice_journal_lost_records_total", "counter", "Records the admission journal lost: "
            + "dropped once it had failed, or failing as they were written.");
        routers.forEach(m -> journalSample(out, "sluice_journal_lost_records_total", m,
            JournalWriter::recordsDropped));
    }

    private static void journalSample(StringBuilder out, String name, RouterMetrics m,
                                      ToLongFunction<JournalWriter> value) {
        JournalWriter journal = m.journal();
        if (journal != null) {
            sample(out, name, model(m), value.applyAsLong(journal));
        }
    }

    private static void workerGauges(StringBuilder out, List<RouterMetrics> routers) {
        header(out, "sluice_worker_active_requests", "gauge", "Requests the router has booked on the worker.");
        header(out, "sluice_worker_active_prefill_tokens", "gauge", "Prefill tokens the router has booked on the "
            + "worker until their first response item.");
        header(out, "sluice_worker_total_kv_blocks", "gauge", "KV capacity the router books the worker against, in "
            + "router blocks: its engine's when it publishes one, else the configured.");
        header(out, "sluice_worker_engine_running_requests", "gauge", "Requests running in the worker's engine, as its "
            + "metrics last said (all clients').");
        header(out, "sluice_worker_engine_waiting_requests", "gauge", "Requests waiting in the worker's engine, as its "
            + "metrics last said (all clients').");
        header(out, "sluice_worker_engine_kv_blocks_used", "gauge", "KV blocks in use in the worker's engine, in "
            + "router blocks, as its metrics last said (all clients').");
        for (RouterMetrics m : routers) {
            for (Map.Entry<WorkerWithDpRank, RouterMetrics.WorkerLoad> e : new TreeMap<>(m.workers).entrySet()) {
                String labels = model(m) + ",worker_id=\"" + e.getKey().workerId() + "\",dp_rank=\""
                    + e.getKey().dpRank() + "\"";
                RouterMetrics.WorkerLoad load = e.getValue();
                sample(out, "sluice_worker_active_requests", labels, load.activeRequests.get());
                sample(out, "sluice_worker_active_prefill_tokens", labels, load.activePrefillTokens.get());
                known(out, "sluice_worker_total_kv_blocks", labels, load.totalKvBlocks.get());
                known(out, "sluice_worker_engine_running_requests", labels, load.engineRunning.get());
                known(out, "sluice_worker_engine_waiting_requests", labels, load.engineWaiting.get());
                known(out, "sluice_worker_engine_kv_blocks_used", labels, load.engineKvBlocks.get());
            }
        }
    }

    /** A sample only when the value is known (not negative). */
    private static void known(StringBuilder out, String name, String labels, long value) {
        if (value >= 0) {
            sample(out, name, labels, value);
        }
    }

    private static void engineTelemetry(StringBuilder out, List<RouterMetrics> routers) {
        header(out, "sluice_engine_metrics_scrapes_total", "counter", "Scrapes of the worker's engine's /metrics.");
        header(out, "sluice_engine_metrics_scrape_failures_total", "counter", "Scrapes of the worker's engine's "
            + "/metrics that gave no load, by reason.");
        header(out, "sluice_engine_metrics_malformed_lines_total", "counter", "Lines of the worker's engine's "
            + "/metrics that could not be read (the others were).");
        header(out, "sluice_engine_metrics_last_sample_age_seconds", "gauge", "Seconds since the last usable scrape "
            + "of the worker's engine's /metrics.");
        for (RouterMetrics m : routers) {
            for (Map.Entry<Long, EngineTelemetryMetrics.Worker> e : m.telemetry.workers.entrySet()) {
                String labels = model(m) + ",worker_id=\"" + e.getKey() + "\"";
                EngineTelemetryMetrics.Worker worker = e.getValue();
                sample(out, "sluice_engine_metrics_scrapes_total", labels, worker.scrapes.get());
                for (ScrapeFailure failure : ScrapeFailure.values()) {
                    sample(out, "sluice_engine_metrics_scrape_failures_total", labels + ",reason=\"" + failure.label()
                        + "\"", worker.failures.get(failure.ordinal()));
                }
                sample(out, "sluice_engine_metrics_malformed_lines_total", labels, worker.malformedLines.get());
                double age = m.telemetry.lastSampleAgeSeconds(e.getKey());
                if (!Double.isNaN(age)) {
                    out.append("sluice_engine_metrics_last_sample_age_seconds{").append(labels).append("} ")
                        .append(String.format(Locale.ROOT, "%.3f", age)).append('\n');
                }
            }
        }
    }

    private static void histogram(StringBuilder out, String name, String labels, Histogram micros) {
        for (double le : LatencyHistogram.BUCKETS_SECONDS) {
            long upTo = micros.getTotalCount() == 0 ? 0
                : countAtOrBelow(micros, (long) (le * 1_000_000));
            sample(out, name + "_bucket", labels + ",le=\"" + format(le) + "\"", upTo);
        }
        sample(out, name + "_bucket", labels + ",le=\"+Inf\"", micros.getTotalCount());
        out.append(name).append("_sum{").append(labels).append("} ")
            .append(format(micros.getMean() * micros.getTotalCount() / 1e6)).append('\n');
        sample(out, name + "_count", labels, micros.getTotalCount());
    }

    private static long countAtOrBelow(Histogram histogram, long value) {
        return histogram.getCountBetweenValues(0, value);
    }

    private static String classLabels(RouterMetrics m, ClassMetrics table, int slot) {
        return model(m) + ",policy_class=\"" + escape(table.names.get(slot)) + "\"";
    }

    private static String model(RouterMetrics m) {
        return "model=\"" + escape(m.model) + "\"";
    }

    private static void header(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, String labels, long value) {
        out.append(name).append('{').append(labels).append("} ").append(value).append('\n');
    }

    private static String format(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? String.valueOf((long) value)
            : String.format(Locale.ROOT, "%s", value);
    }

    /** A label value as the text format writes it: backslash, double quote and line feed escaped. */
    public static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
