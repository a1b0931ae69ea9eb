package dev.sluice.transport.engine.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.metrics.ScrapeFailure;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The served model's load per engine rank, from vLLM's and SGLang's expositions. */
class EngineMetricsReaderTest {
    private static final String LLAMA = "meta-llama/Llama-3.1-8B-Instruct";

    private static EngineSample read(String text, String model, List<String> notes) throws ScrapeException {
        return EngineMetricsReader.read(PrometheusParser.parse(text), model, notes);
    }

    @Test
    void shouldReadVllmV1PerEngineRankWithItsCacheConfig() throws ScrapeException {
        List<String> notes = new ArrayList<>();
        EngineSample sample = read(EngineExpositions.VLLM_V1_DP2, LLAMA, notes);

        assertEquals("vllm", sample.dialect());
        assertEquals(List.of(new EngineSample.Rank(0, 3, 5, 0.5, 27159L * 16, 16),
            new EngineSample.Rank(1, 1, 0, 0.125, 27201L * 16, 16)), sample.ranks());
        assertEquals(List.of(), notes);
    }

    @Test
    void shouldReadVllmV0WithTheOldUsageNameAndARanklessCacheInfo() throws ScrapeException {
        EngineSample sample = read(EngineExpositions.VLLM_V0, "mistralai/Mistral-7B-Instruct-v0.2",
            new ArrayList<>());

        assertEquals(List.of(new EngineSample.Rank(0, 12, 2, 0.25, 7463L * 32, 32)), sample.ranks());
    }

    @Test
    void shouldReadSglangPerDpRankCountingEachTensorParallelGroupOnce() throws ScrapeException {
        EngineSample sample = read(EngineExpositions.SGLANG_DP2_TP2, "Qwen/Qwen3-8B", new ArrayList<>());

        assertEquals("sglang", sample.dialect());
        assertEquals(List.of(new EngineSample.Rank(0, 4, 9, 0.6, 51200, 0), new EngineSample.Rank(1, 2, 0, 0.1, 51200,
            0)), sample.ranks(), "tp_rank 1 repeats rank 0's scheduler: not added");
    }

    @Test
    void shouldTakeOnlyTheServedModelsSeries() throws ScrapeException {
        String two = """
            vllm:num_requests_running{engine="0",model_name="other"} 40.0
            vllm:num_requests_waiting{engine="0",model_name="other"} 30.0
            vllm:kv_cache_usage_perc{engine="0",model_name="other"} 0.9
            vllm:num_requests_running{engine="0",model_name="mine"} 1.0
            vllm:num_requests_waiting{engine="0",model_name="mine"} 2.0
            vllm:kv_cache_usage_perc{engine="0",model_name="mine"} 0.3
            """;

        EngineSample sample = read(two, "mine", new ArrayList<>());

        assertEquals(List.of(new EngineSample.Rank(0, 1, 2, 0.3, -1, 0)), sample.ranks());
    }

    @Test
    void shouldFailNamingTheModelsTheEngineHasWhenTheServedOneIsMissing() {
        ScrapeException error = assertThrows(ScrapeException.class,
            () -> read(EngineExpositions.VLLM_V1_DP2, "llama", new ArrayList<>()));

        assertEquals(ScrapeFailure.NO_LOAD, error.failure());
        assertEquals("no vllm:num_requests_running and vllm:num_requests_waiting (nor sglang:num_running_reqs and "
            + "sglang:num_queue_reqs) for model 'llama'; the engine reports model_name [" + LLAMA + "]",
            error.getMessage());
        ScrapeException none = assertThrows(ScrapeException.class,
            () -> read("process_open_fds 12.0\n", "llama", new ArrayList<>()));
        assertTrue(none.getMessage().endsWith("for model 'llama'"), none.getMessage());
    }

    @Test
    void shouldSkipSeriesWithABadRankOrValueAndSayWhy() throws ScrapeException {
        String text = """
            vllm:num_requests_running{engine="0",model_name="m"} 2.0
            vllm:num_requests_waiting{engine="0",model_name="m"} 1.0
            vllm:num_requests_running{engine="dp-1",model_name="m"} 9.0
            vllm:num_requests_waiting{engine="dp-1",model_name="m"} 9.0
            vllm:num_requests_running{engine="2",model_name="m"} NaN
            vllm:num_requests_waiting{engine="2",model_name="m"} -1
            vllm:kv_cache_usage_perc{engine="0",model_name="m"} 1.5
            vllm:cache_config_info{block_size="sixteen",engine="0",num_gpu_blocks="100"} 1.0
            """;
        List<String> notes = new ArrayList<>();

        EngineSample sample = read(text, "m", notes);

        assertEquals(List.of(new EngineSample.Rank(0, 2, 1, 1.0, -1, 0)), sample.ranks(), "usage clamped to 1");
        assertEquals(List.of(
            "vllm:num_requests_running has engine=\"dp-1\", not a rank number: skipped",
            "vllm:num_requests_running of rank 2 is NaN, not a count or fraction: skipped",
            "vllm:num_requests_waiting has engine=\"dp-1\", not a rank number: skipped",
            "vllm:num_requests_waiting of rank 2 is -1.0, not a count or fraction: skipped",
            "vllm:cache_config_info of rank 0 has num_gpu_blocks=\"100\" and block_size=\"sixteen\", not positive "
                + "integers: skipped"), notes);
    }
}
