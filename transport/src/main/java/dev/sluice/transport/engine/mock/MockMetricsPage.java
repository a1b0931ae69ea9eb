package dev.sluice.transport.engine.mock;

import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.metrics.PrometheusText;
import java.util.Locale;

/**
 * The mock engine's {@code GET /metrics}: the simulated worker's real load after its last forward pass, under the
 * names and labels vLLM's v1 engine publishes ({@code vllm/v1/metrics/loggers.py}): per data-parallel rank (label
 * {@code engine}) and with the served {@code model_name}, {@code vllm:num_requests_running},
 * {@code vllm:num_requests_waiting}, {@code vllm:kv_cache_usage_perc} (0..1), the counters
 * {@code vllm:prefix_cache_queries_total} and {@code vllm:prefix_cache_hits_total} (prompt tokens looked up in the
 * prefix cache at admission, and those found there: their ratio is the token-weighted hit rate) and
 * {@code vllm:num_preemptions_total}, and the info gauge {@code vllm:cache_config_info} whose labels carry
 * {@code num_gpu_blocks} and {@code block_size}. Prometheus text format 0.0.4. Stateless; any thread.
 */
final class MockMetricsPage {
    /** The content type of the page. */
    static final String CONTENT_TYPE = PrometheusText.CONTENT_TYPE;

    private MockMetricsPage() {
    }

    static String render(Engine engine, String modelName) {
        EngineRuntimeConfig config = engine.runtimeConfig();
        EngineLoad[] loads = new EngineLoad[config.dataParallelSize()];
        for (int rank = 0; rank < loads.length; rank++) {
            loads[rank] = engine.load(rank);
        }
        String model = "model_name=\"" + PrometheusText.escape(modelName) + "\"";
        StringBuilder out = new StringBuilder(2048);
        header(out, "vllm:num_requests_running", "Number of requests in model execution batches.");
        for (EngineLoad load : loads) {
            sample(out, "vllm:num_requests_running", model, load.dpRank(), load.runningRequests());
        }
        header(out, "vllm:num_requests_waiting", "Number of requests waiting to be processed.");
        for (EngineLoad load : loads) {
            sample(out, "vllm:num_requests_waiting", model, load.dpRank(), load.waitingRequests());
        }
        header(out, "vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.");
        for (EngineLoad load : loads) {
            sample(out, "vllm:kv_cache_usage_perc", model, load.dpRank(), load.kvUsage());
        }
        counter(out, "vllm:prefix_cache_queries_total", "Prefix cache queries, in terms of number of queried tokens.");
        for (EngineLoad load : loads) {
            sample(out, "vllm:prefix_cache_queries_total", model, load.dpRank(), load.prefixCacheQueries());
        }
        counter(out, "vllm:prefix_cache_hits_total", "Prefix cache hits, in terms of number of cached tokens.");
        for (EngineLoad load : loads) {
            sample(out, "vllm:prefix_cache_hits_total", model, load.dpRank(), load.prefixCacheHits());
        }
        counter(out, "vllm:num_preemptions_total", "Cumulative number of preemption from the engine.");
        for (EngineLoad load : loads) {
            sample(out, "vllm:num_preemptions_total", model, load.dpRank(), load.preemptions());
        }
        header(out, "vllm:cache_config_info", "Information of the LLMEngine CacheConfig");
        for (EngineLoad load : loads) {
            out.append("vllm:cache_config_info{block_size=\"").append(config.blockSize())
                .append("\",cache_dtype=\"auto\",enable_prefix_caching=\"True\",engine=\"").append(load.dpRank())
                .append("\",num_gpu_blocks=\"").append(load.totalKvBlocks()).append("\"} 1.0\n");
        }
        return out.toString();
    }

    private static void header(StringBuilder out, String name, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" gauge\n");
    }

    /** As the Prometheus Python client writes a counter in format 0.0.4: HELP and TYPE name it with its _total. */
    private static void counter(StringBuilder out, String name, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" counter\n");
    }

    private static void sample(StringBuilder out, String name, String model, int rank, long value) {
        out.append(name).append('{').append("engine=\"").append(rank).append("\",").append(model).append("} ")
            .append(value).append(".0\n");
    }

    private static void sample(StringBuilder out, String name, String model, int rank, double value) {
        out.append(name).append('{').append("engine=\"").append(rank).append("\",").append(model).append("} ")
            .append(String.format(Locale.ROOT, "%s", value)).append('\n');
    }
}
