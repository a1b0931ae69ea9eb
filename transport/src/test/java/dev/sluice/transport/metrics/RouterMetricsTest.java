package dev.sluice.transport.metrics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.SteppedRouter;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Metrics follow the scheduler's decisions and render as Prometheus text with bounded labels. */
class RouterMetricsTest {

    private static void assertLine(String text, String line) {
        assertTrue(text.lines().anyMatch(line::equals), () -> "missing line: " + line + "\n" + text);
    }

    @Test
    void shouldTrackQueueDepthWorkerLoadAndOutcomes() {
        PolicyProfile profile = PolicyProfile.synthetic(OptionalDouble.of(0.0), QueuePolicy.FCFS);
        RouterMetrics metrics = new RouterMetrics("m", profile, 529);
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().profile(profile).observer(metrics))) {
            metrics.attach(r.router::stats);
            r.worker(1, 100);
            long running = r.submit("running", 60);
            r.submit("queued", 40);
            r.submit("running", 10);

            String during = PrometheusText.render(List.of(metrics));
            assertLine(during, "sluice_queue_pending_requests{model=\"m\",policy_class=\"default\"} 1");
            assertLine(during, "dynamo_frontend_router_queue_pending_isl_tokens{model=\"m\",policy_class=\"default\"}"
                + " 40");
            assertLine(during, "sluice_worker_active_requests{model=\"m\",worker_id=\"1\",dp_rank=\"0\"} 1");
            assertLine(during, "sluice_worker_active_prefill_tokens{model=\"m\",worker_id=\"1\",dp_rank=\"0\"} 60");
            assertLine(during, "sluice_requests_rejected_total{model=\"m\",reason=\"duplicate_request_id\","
                + "status=\"409\"} 1");
            assertLine(during, "sluice_live_requests{model=\"m\"} 2");

            r.clock.advance(Duration.ofMillis(3).toNanos());
            r.router.responding(running);
            r.step();
            String after = PrometheusText.render(List.of(metrics));
            assertLine(after, "sluice_queue_pending_requests{model=\"m\",policy_class=\"default\"} 0");
            assertLine(after, "sluice_worker_active_requests{model=\"m\",worker_id=\"1\",dp_rank=\"0\"} 2");
            assertLine(after, "sluice_worker_active_prefill_tokens{model=\"m\",worker_id=\"1\",dp_rank=\"0\"} 40");
            assertLine(after, "sluice_queue_wait_seconds_count{model=\"m\",policy_class=\"default\"} 2");
            assertLine(after, "sluice_queue_wait_seconds_bucket{model=\"m\",policy_class=\"default\",le=\"0.001\"} 1");
            assertLine(after, "sluice_queue_wait_seconds_bucket{model=\"m\",policy_class=\"default\",le=\"0.005\"} 2");
            assertLine(after, "sluice_queue_dispatched_total{model=\"m\",policy_class=\"default\"} 2");
        }
    }

    @Test
    void shouldMovePendingGaugesAcrossAPolicyReloadAndKeepEverySeries() throws Exception {
        PolicyProfile before = PolicyProfile.synthetic(OptionalDouble.of(0.0), QueuePolicy.FCFS);
        String yaml = """
            default_policy_family: standard
            uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
            policy_classes:
              - {name: standard, policy_family: standard, cache_bucket: any, quantum: 1, prefill_busy_threshold: 0}
            """;
        PolicyProfile after = dev.sluice.core.config.RouterPolicyLoader.parse(yaml, "after.yaml").root()
            .orElseThrow();
        RouterMetrics metrics = new RouterMetrics("m", before, 529);
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().profile(before).observer(metrics))) {
            metrics.attach(r.router::stats);
            r.worker(1, 100);
            long running = r.submit("running", 60);
            r.submit("queued", 40);
            r.router.reloadPolicy("after.yaml", yaml, after);
            r.step();

            String reloaded = PrometheusText.render(List.of(metrics));
            assertLine(reloaded, "sluice_queue_pending_requests{model=\"m\",policy_class=\"default\"} 0");
            assertLine(reloaded, "sluice_queue_pending_isl_tokens{model=\"m\",policy_class=\"standard\"} 40");
            assertLine(reloaded, "sluice_queue_pending_requests{model=\"m\",policy_class=\"standard\"} 1");
            assertLine(reloaded, "sluice_queue_enqueued_total{model=\"m\",policy_class=\"default\"} 2");
            assertLine(reloaded, "sluice_policy_reloads_total{model=\"m\",result=\"applied\"} 1");

            r.router.responding(running);
            r.step();
            metrics.policyReloadRefused();
            String drained = PrometheusText.render(List.of(metrics));
            assertLine(drained, "sluice_queue_pending_requests{model=\"m\",policy_class=\"standard\"} 0");
            assertLine(drained, "sluice_queue_dispatched_total{model=\"m\",policy_class=\"standard\"} 1");
            assertLine(drained, "sluice_queue_wait_seconds_count{model=\"m\",policy_class=\"standard\"} 1");
            assertLine(drained, "sluice_policy_reloads_total{model=\"m\",result=\"refused\"} 1");
        }
    }

    @Test
    void shouldCountQueueDeadlinesAndCancellationsAsLeavingTheQueue() {
        PolicyProfile profile = PolicyProfile.synthetic(OptionalDouble.of(0.0), QueuePolicy.FCFS);
        RouterMetrics metrics = new RouterMetrics("m", profile, 429);
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().profile(profile).observer(metrics))) {
            r.worker(1, 100);
            r.submit("busy", 60);
            long cancelled = r.submit("cancelled", 40);
            r.router.aborted(cancelled, null);
            r.step();

            String text = PrometheusText.render(List.of(metrics));
            assertLine(text, "sluice_queue_pending_requests{model=\"m\",policy_class=\"default\"} 0");
            assertLine(text, "sluice_queue_pending_isl_tokens{model=\"m\",policy_class=\"default\"} 0");
            assertLine(text, "sluice_requests_aborted_total{model=\"m\"} 1");
        }
    }

    @Test
    void shouldExportUnhealthyWorkersAndTheirTransitions() {
        RouterMetrics metrics = new RouterMetrics("m", PolicyProfile.synthetic(OptionalDouble.empty(),
            QueuePolicy.FCFS), 529);
        metrics.health().tracked(0);
        metrics.health().tracked(1);
        metrics.health().turnedUnhealthy(1);
        metrics.health().recovered(1);
        metrics.health().turnedUnhealthy(1);

        String text = PrometheusText.render(List.of(metrics));
        assertLine(text, "# TYPE sluice_workers_unhealthy gauge");
        assertLine(text, "sluice_workers_unhealthy{model=\"m\"} 1");
        assertLine(text, "# TYPE sluice_worker_health_transitions_total counter");
        assertLine(text, "sluice_worker_health_transitions_total{model=\"m\",worker_id=\"1\",to=\"unhealthy\"} 2");
        assertLine(text, "sluice_worker_health_transitions_total{model=\"m\",worker_id=\"1\",to=\"healthy\"} 1");
        assertLine(text, "sluice_worker_health_transitions_total{model=\"m\",worker_id=\"0\",to=\"unhealthy\"} 0");
    }

    @Test
    void shouldEscapeLabelValues() {
        assertTrue(PrometheusText.escape("a\"b\\c\nd").equals("a\\\"b\\\\c\\nd"));
    }
}
