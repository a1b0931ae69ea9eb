package dev.sluice.transport.engine.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.testing.TestClocks;
import dev.sluice.transport.metrics.EngineTelemetryMetrics;
import dev.sluice.transport.metrics.ScrapeFailure;
import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.RecordingTelemetrySink;
import dev.sluice.transport.testing.ScriptedMetricsSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

/** One worker's engine metrics, scraped by hand on a manual clock: what the router hears of each sample. */
class EngineMetricsScraperTest {
    private static final String LLAMA = "meta-llama/Llama-3.1-8B-Instruct";
    private static final WorkerWithDpRank RANK_0 = new WorkerWithDpRank(3, 0);
    private static final WorkerWithDpRank RANK_1 = new WorkerWithDpRank(3, 1);

    private final CachedNanoClock clock = TestClocks.started();
    private final EngineTelemetryMetrics metrics = new EngineTelemetryMetrics(clock);
    private final RecordingTelemetrySink sink = new RecordingTelemetrySink();
    private final ScriptedMetricsSource source = new ScriptedMetricsSource();

    private EngineMetricsScraper scraper(int ranks, String model, int blockSize, boolean capacityFromEngine) {
        return new EngineMetricsScraper(new ScrapeTarget(3, ranks, model, blockSize, 1000, capacityFromEngine),
            source, sink, metrics, clock);
    }

    @Test
    void shouldReportEachRanksLoadAndPublishedCapacityOnce() {
        source.then(EngineExpositions.VLLM_V1_DP2);
        try (EngineMetricsScraper scraper = scraper(2, LLAMA, 16, true)) {
            scraper.scrapeOnce();
            scraper.scrapeOnce();
        }

        WorkerLoad rank0 = new WorkerLoad(RANK_0, 13_580, 3, 5);
        WorkerLoad rank1 = new WorkerLoad(RANK_1, 3_400, 1, 0);
        assertEquals(List.of(rank0, rank1, rank0, rank1), sink.loads(), "0.5 × 27159 and 0.125 × 27201 blocks");
        assertEquals(Map.of(RANK_0, List.of(27_159L), RANK_1, List.of(27_201L)), sink.capacities(),
            "the capacity once, not at every scrape");
        assertTrue(source.closed(), "closed with the scraper");
    }

    @Test
    void shouldConvertTheEnginesBlocksToTheRoutersBlockSize() {
        source.then(EngineExpositions.VLLM_V1_DP2);
        try (EngineMetricsScraper scraper = scraper(2, LLAMA, 64, true)) {
            scraper.scrapeOnce();
        }

        assertEquals(List.of(new WorkerLoad(RANK_0, 3_395, 3, 5), new WorkerLoad(RANK_1, 850, 1, 0)), sink.loads(),
            "27159 blocks of 16 tokens are 6789 blocks of 64, half of them used");
        assertEquals(Map.of(RANK_0, List.of(6_789L), RANK_1, List.of(6_800L)), sink.capacities());
    }

    @Test
    void shouldSumTheEnginesRanksWhenTheRouterHasItAsOneWorker() {
        source.then(EngineExpositions.VLLM_V1_DP2);
        try (EngineMetricsScraper scraper = scraper(1, LLAMA, 16, true)) {
            scraper.scrapeOnce();
        }

        assertEquals(List.of(new WorkerLoad(RANK_0, 13_580 + 3_400, 4, 5)), sink.loads());
        assertEquals(Map.of(RANK_0, List.of(27_159L + 27_201L)), sink.capacities());
    }

    @Test
    void shouldLeaveTheCapacityToTheOperatorsOverride() {
        source.then(EngineExpositions.VLLM_V1_DP2);
        try (EngineMetricsScraper scraper = scraper(2, LLAMA, 16, false)) {
            scraper.scrapeOnce();
        }

        assertEquals(Map.of(), sink.capacities(), "--engine-total-kv-blocks wins");
        assertEquals(13_580, sink.loads().getFirst().usedKvBlocks(), "the blocks in use are the engine's all the same");
    }

    @Test
    void shouldWeighTheUsageByTheConfiguredCapacityWhenTheEnginePublishesNone() {
        source.then("""
            vllm:num_requests_running{engine="0",model_name="m"} 1.0
            vllm:num_requests_waiting{engine="0",model_name="m"} 0.0
            vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.3
            """);
        try (EngineMetricsScraper scraper = scraper(1, "m", 16, true)) {
            scraper.scrapeOnce();
        }

        assertEquals(List.of(new WorkerLoad(RANK_0, 300, 1, 0)), sink.loads(), "0.3 of the configured 1000 blocks");
        assertEquals(Map.of(), sink.capacities());
    }

    @Test
    void shouldReadSglangsTokensAsRouterBlocks() {
        source.then(EngineExpositions.SGLANG_DP2_TP2);
        try (EngineMetricsScraper scraper = scraper(2, "Qwen/Qwen3-8B", 16, true)) {
            scraper.scrapeOnce();
        }

        assertEquals(List.of(new WorkerLoad(RANK_0, 1_920, 4, 9), new WorkerLoad(RANK_1, 320, 2, 0)), sink.loads(),
            "51200 tokens are 3200 blocks of 16");
        assertEquals(Map.of(RANK_0, List.of(3_200L), RANK_1, List.of(3_200L)), sink.capacities());
    }

    @Test
    void shouldHoldTheLastReportThroughTwoFailuresAndDropItAtTheThird() {
        source.then(EngineExpositions.VLLM_V1_DP2)
            .thenFail(ScrapeFailure.UNREACHABLE, "connection refused")
            .thenFail(ScrapeFailure.HTTP_STATUS, "GET /metrics answered HTTP 503")
            .then("<html>not metrics</html>")
            .thenFail(ScrapeFailure.UNREACHABLE, "connection refused")
            .then(EngineExpositions.VLLM_V1_DP2);
        try (EngineMetricsScraper scraper = scraper(2, LLAMA, 16, true)) {
            scraper.scrapeOnce();
            sink.clear();
            scraper.scrapeOnce();
            scraper.scrapeOnce();
            assertEquals(List.of(), sink.loads(), "two failures: the last report still holds");

            scraper.scrapeOnce();
            assertEquals(List.of(new WorkerLoad(RANK_0, 0, 0, 0), new WorkerLoad(RANK_1, 0, 0, 0)), sink.loads(),
                "the third: no outside load, the router goes by its own bookings");

            sink.clear();
            scraper.scrapeOnce();
            assertEquals(List.of(), sink.loads(), "dropped once");
            scraper.scrapeOnce();
            assertEquals(List.of(new WorkerLoad(RANK_0, 13_580, 3, 5), new WorkerLoad(RANK_1, 3_400, 1, 0)),
                sink.loads(), "a good scrape counts again");
        }
        assertEquals(6, metrics.scrapes(3));
        assertEquals(2, metrics.failures(3, ScrapeFailure.UNREACHABLE));
        assertEquals(1, metrics.failures(3, ScrapeFailure.HTTP_STATUS));
        assertEquals(1, metrics.failures(3, ScrapeFailure.UNPARSABLE), "HTML is not Prometheus text");
    }

    @Test
    void shouldCountAScrapeWithoutTheModelsLoadAsAFailure() {
        source.then(EngineExpositions.VLLM_V1_DP2);
        try (EngineMetricsScraper scraper = scraper(1, "another-model", 16, true)) {
            scraper.scrapeOnce();
        }

        assertEquals(List.of(), sink.loads());
        assertEquals(1, metrics.failures(3, ScrapeFailure.NO_LOAD));
        assertTrue(Double.isNaN(metrics.lastSampleAgeSeconds(3)), "no sample yet");
    }

    @Test
    void shouldReadTheGoodLinesOfAPartlyMalformedExpositionAndCountTheBadOnes() {
        source.then("""
            vllm:num_requests_running{engine="0",model_name="m"} 2.0
            vllm:num_requests_waiting{engine="0",model_name="m" 7.0
            vllm:num_requests_waiting{engine="0",model_name="m"} 1.0
            vllm:kv_cache_usage_perc{engine="0",model_name="m"} zero
            """);
        try (EngineMetricsScraper scraper = scraper(1, "m", 16, true)) {
            scraper.scrapeOnce();
            clock.advance(Duration.ofMillis(2500).toNanos());

            assertEquals(List.of(new WorkerLoad(RANK_0, 0, 2, 1)), sink.loads(), "no usable KV usage: none counted");
            assertEquals(2.5, metrics.lastSampleAgeSeconds(3));
            assertEquals(2, metrics.malformedLines(3));
        }
    }

    @Test
    void shouldTellTheSinkNothingOnceClosed() {
        source.then(EngineExpositions.VLLM_V1_DP2);
        EngineMetricsScraper scraper = scraper(2, LLAMA, 16, true);
        scraper.close();
        scraper.scrapeOnce();
        scraper.close();

        assertEquals(0, source.fetches());
        assertEquals(List.of(), sink.loads());
    }

    @Test
    void shouldScrapeOnItsOwnThreadUntilClosed() {
        source.then(EngineExpositions.VLLM_V1_DP2);
        EngineMetricsScraper scraper = scraper(2, LLAMA, 16, true);
        scraper.start(Duration.ofMillis(1));
        Await.until("three scrapes", () -> source.fetches() >= 3);
        scraper.close();
        int fetches = source.fetches();
        int loads = sink.loads().size();

        assertTrue(loads % 2 == 0 && loads >= 2 * (fetches - 1), fetches + " scrapes, " + loads + " loads: each "
            + "scrape reported both ranks or (the one close caught after its fetch) none");
        assertTrue(source.closed());
        assertEquals(fetches, source.fetches(), "no scrape after close returned");
    }
}
