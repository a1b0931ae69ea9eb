package dev.sluice.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.config.CacheBucket;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.TenantFairness;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.testing.SteppedRouter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The scheduler reports a tenant-fair class's active tenants and top shares once a second, and only for it. */
class TenantSharesTest {
    record Report(int classIndex, int active, double[] shares) {
    }

    private static PolicyProfile profile(TenantFairness fairness) {
        PolicyClassSpec spec = new PolicyClassSpec("shared", "standard", "all", QueuePolicy.FCFS, 1000,
            OptionalLong.of(0), OptionalDouble.empty(), OptionalLong.empty(), OptionalLong.empty(),
            OptionalLong.empty(), fairness);
        return PolicyProfile.of("standard", List.of(new CacheBucket(0, "all")), List.of(spec));
    }

    private static List<Report> run(TenantFairness fairness) {
        List<Report> reports = new ArrayList<>();
        SchedulerObserver observer = new SchedulerObserver() {
            @Override
            public void onTenantShares(long nowNs, int classIndex, int activeTenants, double[] topShares) {
                reports.add(new Report(classIndex, activeTenants, topShares.clone()));
            }
        };
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().profile(profile(fairness))
            .observer(observer)).worker(1, 8192)) {
            long a = r.submit(AdmissionRequest.builder("a").inputTokens(300).tenant("a").build());
            long b = r.submit(AdmissionRequest.builder("b").inputTokens(100).tenant("b").build());
            r.router.responding(a);
            r.router.completed(a, 300 + 50);
            r.step();
            assertTrue(reports.isEmpty(), "nothing before a second has passed");
            r.advance(Duration.ofSeconds(1));
            r.router.completed(b, 100);
            r.advance(Duration.ofSeconds(1));
        }
        return reports;
    }

    @Test
    void shouldReportActiveTenantsAndTopSharesOncePerSecond() {
        List<Report> reports = run(new TenantFairness(TenantFairness.Mode.VTC, 1, 0, 2, 8, Map.of()));
        assertEquals(2, reports.size());
        // a: 300 prompt + 2 x 50 generated = 400 served; b: 100 dispatched (after a's first token), still running.
        assertEquals(1, reports.get(0).active());
        assertArrayEquals(new double[] {0.8, 0.2, 0.0}, reports.get(0).shares(), 1e-9);
        assertEquals(0, reports.get(1).active());
    }

    @Test
    void shouldReportNothingWithoutTenantFairness() {
        assertEquals(List.of(), run(TenantFairness.NONE));
    }

    @Test
    void shouldChargeARetriedRequestsPromptToItsTenantOnce() {
        List<Report> reports = new ArrayList<>();
        SchedulerObserver observer = new SchedulerObserver() {
            @Override
            public void onTenantShares(long nowNs, int classIndex, int activeTenants, double[] topShares) {
                reports.add(new Report(classIndex, activeTenants, topShares.clone()));
            }
        };
        TenantFairness fairness = new TenantFairness(TenantFairness.Mode.VTC, 1, 0, 2, 8, Map.of());
        try (SteppedRouter r = new SteppedRouter(null, new RouterContext().profile(profile(fairness))
            .observer(observer)).worker(1, 8192)) {
            long a = r.submit(AdmissionRequest.builder("a").inputTokens(300).tenant("a").build());
            r.router.retry(a);
            r.step();
            assertEquals(2, r.listener.inOrder().stream().filter(o -> o.lifecycleId() == a).count(),
                "dispatched again after the retry");
            long b = r.submit(AdmissionRequest.builder("b").inputTokens(100).tenant("b").build());
            r.router.completed(a, 300);
            r.step();
            r.router.completed(b, 100);
            r.advance(Duration.ofSeconds(1));
        }
        // a: its 300 prompt tokens once, not once per dispatch; b: 100.
        assertArrayEquals(new double[] {0.75, 0.25, 0.0}, reports.get(0).shares(), 1e-9);
    }
}
