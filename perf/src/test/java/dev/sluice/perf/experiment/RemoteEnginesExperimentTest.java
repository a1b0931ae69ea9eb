package dev.sluice.perf.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.demo.DemoTraffic;
import dev.sluice.transport.demo.InProcessDemo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The bar: the demo's workload through {@code serve --engine-url ... --engine-kv-events ...} in front of mock
 * engines reaches a prefix-cache hit rate within 2 points of the embedded fleet's, on the same seed. A system test
 * in real time over loopback (about 75 s): a fixed set of calls (the demo's for 4 workers over 30 s, seed 42, 526
 * calls), every one of which must end before the figures are read, and the figures are the engines' own counters,
 * read once they are idle, so the run's length on a slow machine does not enter them. Timing does move placements,
 * and so the hit rates, from run to run: on the development machine (2 cores) this window gave 72.6-73.7 %
 * embedded and 73.2-74.0 % remote over five runs each, and {@code sluice demo}'s own figure (a per-admission mean)
 * 74.9-75.1 % and 74.7-75.6 %; at the demo's 60 s, where the burst's KV pressure makes evictions chaotic, both fleets
 * spread over 66-70 % (means 68.0 % and 68.3 % over six runs each), which is why the test runs the shorter window.
 * Without KV events the remote fleet reached 69 %, so a router that lost them would fail here. Under load one run's
 * embedded figure alone spread over 71.4-73.8 % (six runs), so a run that misses the bar is played again and the bar
 * holds for the mean of the two.
 */
class RemoteEnginesExperimentTest {
    private static final RemoteEnginesExperiment.Settings SHORT = new RemoteEnginesExperiment.Settings(4,
        Duration.ofSeconds(30), 42);

    @Test
    void shouldReachTheEmbeddedFleetsHitRateWithinTwoPointsThroughRemoteEngines() throws Exception {
        RemoteEnginesExperiment.Result first = checkedRun();
        double gap = first.gapPoints();
        double demoGap = demoGap(first);
        String tables = table(first);
        if (Math.abs(gap) > 2.0 || Math.abs(demoGap) > 0.02) {
            // One run's figures move with timing by up to ~2.4 points (see above); the bar holds for the mean of two
            // runs, which a router that lost its KV events (~4 points below) still misses.
            RemoteEnginesExperiment.Result second = checkedRun();
            gap = (gap + second.gapPoints()) / 2;
            demoGap = (demoGap + demoGap(second)) / 2;
            tables += "and again:\n" + table(second);
        }
        assertTrue(Math.abs(gap) <= 2.0, "hit rates within 2 points (" + gap + ")\n" + tables);
        assertTrue(Math.abs(demoGap) <= 0.02, "sluice demo's figure within 2 points too (" + demoGap + ")\n" + tables);
    }

    /** One run of both fleets, with the checks that must hold in every run. */
    private static RemoteEnginesExperiment.Result checkedRun() throws Exception {
        RemoteEnginesExperiment.Result result = RemoteEnginesExperiment.run(SHORT);
        String table = table(result);
        System.out.print(table);

        int calls = DemoTraffic.of(4, SHORT.duration(), SHORT.seed(), InProcessDemo.MODEL).calls();
        for (RemoteEnginesExperiment.Fleet fleet : new RemoteEnginesExperiment.Fleet[] {result.embedded(),
            result.remote()}) {
            DemoTraffic.Outcome clients = fleet.clients();
            assertEquals(calls, clients.sent(), "the whole workload was sent to " + fleet.label() + "\n" + table);
            assertTrue(clients.drained() && clients.failed() == 0,
                "every call ended, none broke (" + fleet.label() + ": " + clients.failures() + ")\n" + table);
            assertTrue(fleet.dispatched() > calls / 2 && fleet.queries() > 0, "the engines served\n" + table);
        }
        assertTrue(result.remoteKvEvents().applied() > 0 && result.remoteKvEvents().complete(),
            "the router learnt the mock engines' caches from their KV events, none lost\n" + table);
        return result;
    }

    private static double demoGap(RemoteEnginesExperiment.Result result) {
        return result.remote().demoFigure() - result.embedded().demoFigure();
    }

    private static String table(RemoteEnginesExperiment.Result result) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        RemoteEnginesExperiment.print(result, new PrintStream(text, true, StandardCharsets.UTF_8));
        return text.toString(StandardCharsets.UTF_8);
    }
}
