package dev.sluice.transport.engine.telemetry;

/**
 * Expositions as real engines serve them, built from the engines' own metric definitions and written the way
 * {@code prometheus_client}'s text format writes them (labels in declaration order, floats as Python prints them,
 * HELP and TYPE lines, the runtime's own process and Python metrics around them).
 */
final class EngineExpositions {
    /**
     * vLLM's v1 engine with two data-parallel ranks ({@code vllm/v1/metrics/loggers.py}: label names
     * {@code model_name, engine}; {@code vllm:cache_config_info} from {@code CacheConfig.metrics_info()}, every field
     * a label, plus {@code engine}), one counter with its {@code _created} sample and a histogram.
     */
    static final String VLLM_V1_DP2 = """
        # HELP python_gc_objects_collected_total Objects collected during gc
        # TYPE python_gc_objects_collected_total counter
        python_gc_objects_collected_total{generation="0"} 12857.0
        # HELP python_info Python platform information
        # TYPE python_info gauge
        python_info{implementation="CPython",major="3",minor="12",patchlevel="11",version="3.12.11"} 1.0
        # HELP process_virtual_memory_bytes Virtual memory size in bytes.
        # TYPE process_virtual_memory_bytes gauge
        process_virtual_memory_bytes 7.1534436352e+010
        # HELP vllm:num_requests_running Number of requests in model execution batches.
        # TYPE vllm:num_requests_running gauge
        vllm:num_requests_running{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 3.0
        vllm:num_requests_running{engine="1",model_name="meta-llama/Llama-3.1-8B-Instruct"} 1.0
        # HELP vllm:num_requests_waiting Number of requests waiting to be processed.
        # TYPE vllm:num_requests_waiting gauge
        vllm:num_requests_waiting{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 5.0
        vllm:num_requests_waiting{engine="1",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.0
        # HELP vllm:gpu_cache_usage_perc GPU KV-cache usage. 1 means 100 percent usage.DEPRECATED: Use \
        vllm:kv_cache_usage_perc instead.
        # TYPE vllm:gpu_cache_usage_perc gauge
        vllm:gpu_cache_usage_perc{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.5
        vllm:gpu_cache_usage_perc{engine="1",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.125
        # HELP vllm:kv_cache_usage_perc KV-cache usage. 1 means 100 percent usage.
        # TYPE vllm:kv_cache_usage_perc gauge
        vllm:kv_cache_usage_perc{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.5
        vllm:kv_cache_usage_perc{engine="1",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.125
        # HELP vllm:prompt_tokens_total Number of prefill tokens processed.
        # TYPE vllm:prompt_tokens_total counter
        vllm:prompt_tokens_total{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 183422.0
        vllm:prompt_tokens_created{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 1.7513214839245e+09
        # HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.
        # TYPE vllm:time_to_first_token_seconds histogram
        vllm:time_to_first_token_seconds_sum{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 41.2
        vllm:time_to_first_token_seconds_bucket{engine="0",le="0.001",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.0
        vllm:time_to_first_token_seconds_bucket{engine="0",le="+Inf",model_name="meta-llama/Llama-3.1-8B-Instruct"} 97.0
        vllm:time_to_first_token_seconds_count{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 97.0
        # HELP vllm:cache_config_info Information of the LLMEngine CacheConfig
        # TYPE vllm:cache_config_info gauge
        vllm:cache_config_info{block_size="16",cache_dtype="auto",calculate_kv_scales="False",cpu_offload_gb="0",\
        enable_prefix_caching="True",engine="0",gpu_memory_utilization="0.9",is_attention_free="False",\
        num_cpu_blocks="None",num_gpu_blocks="27159",num_gpu_blocks_override="None",prefix_caching_hash_algo="builtin",\
        sliding_window="None",swap_space="4",swap_space_bytes="4294967296"} 1.0
        vllm:cache_config_info{block_size="16",cache_dtype="auto",calculate_kv_scales="False",cpu_offload_gb="0",\
        enable_prefix_caching="True",engine="1",gpu_memory_utilization="0.9",is_attention_free="False",\
        num_cpu_blocks="None",num_gpu_blocks="27201",num_gpu_blocks_override="None",prefix_caching_hash_algo="builtin",\
        sliding_window="None",swap_space="4",swap_space_bytes="4294967296"} 1.0
        """;

    /**
     * vLLM's engine before v1 ({@code vllm/engine/metrics.py}): label {@code model_name} only, KV usage as
     * {@code vllm:gpu_cache_usage_perc}, and {@code vllm:cache_config} a {@code prometheus_client} Info (exposed as
     * {@code vllm:cache_config_info}) without a rank label.
     */
    static final String VLLM_V0 = """
        # HELP vllm:cache_config_info information of cache_config
        # TYPE vllm:cache_config_info gauge
        vllm:cache_config_info{block_size="32",cache_dtype="auto",enable_prefix_caching="False",\
        gpu_memory_utilization="0.9",num_cpu_blocks="2048",num_gpu_blocks="7463",sliding_window="None",\
        swap_space_bytes="4294967296"} 1.0
        # HELP vllm:num_requests_running Number of requests currently running on GPU.
        # TYPE vllm:num_requests_running gauge
        vllm:num_requests_running{model_name="mistralai/Mistral-7B-Instruct-v0.2"} 12.0
        # HELP vllm:num_requests_swapped Number of requests swapped to CPU.
        # TYPE vllm:num_requests_swapped gauge
        vllm:num_requests_swapped{model_name="mistralai/Mistral-7B-Instruct-v0.2"} 0.0
        # HELP vllm:num_requests_waiting Number of requests waiting to be processed.
        # TYPE vllm:num_requests_waiting gauge
        vllm:num_requests_waiting{model_name="mistralai/Mistral-7B-Instruct-v0.2"} 2.0
        # HELP vllm:gpu_cache_usage_perc GPU KV-cache usage. 1 means 100 percent usage.
        # TYPE vllm:gpu_cache_usage_perc gauge
        vllm:gpu_cache_usage_perc{model_name="mistralai/Mistral-7B-Instruct-v0.2"} 0.25
        """;

    /**
     * SGLang with two data-parallel ranks and tensor parallelism 2 ({@code python/sglang/srt/metrics/collector.py}'s
     * {@code SchedulerMetricsCollector}; labels from {@code scheduler_metrics_mixin.py}: {@code model_name},
     * {@code engine_type}, {@code tp_rank}, {@code pp_rank}, {@code dp_rank}), every scheduler reporting, so
     * {@code tp_rank="1"} repeats rank 0's figures; KV in tokens.
     */
    static final String SGLANG_DP2_TP2 = """
        # HELP sglang:num_running_reqs The number of running requests.
        # TYPE sglang:num_running_reqs gauge
        sglang:num_running_reqs{dp_rank="0",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",\
        tp_rank="0"} 4.0
        sglang:num_running_reqs{dp_rank="0",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",\
        tp_rank="1"} 4.0
        sglang:num_running_reqs{dp_rank="1",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",\
        tp_rank="0"} 2.0
        # HELP sglang:num_used_tokens The number of used tokens.
        # TYPE sglang:num_used_tokens gauge
        sglang:num_used_tokens{dp_rank="0",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",\
        tp_rank="0"} 30720.0
        # HELP sglang:token_usage The token usage.
        # TYPE sglang:token_usage gauge
        sglang:token_usage{dp_rank="0",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",tp_rank="0"} 0.6
        sglang:token_usage{dp_rank="0",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",tp_rank="1"} 0.6
        sglang:token_usage{dp_rank="1",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",tp_rank="0"} 0.1
        # HELP sglang:num_queue_reqs The number of requests in the waiting queue.
        # TYPE sglang:num_queue_reqs gauge
        sglang:num_queue_reqs{dp_rank="0",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",tp_rank="0"} 9.0
        sglang:num_queue_reqs{dp_rank="0",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",tp_rank="1"} 9.0
        sglang:num_queue_reqs{dp_rank="1",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",tp_rank="0"} 0.0
        # HELP sglang:cache_hit_rate The prefix cache hit rate.
        # TYPE sglang:cache_hit_rate gauge
        sglang:cache_hit_rate{dp_rank="0",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",tp_rank="0"} NaN
        # HELP sglang:max_total_num_tokens Maximum total number of tokens in the KV cache pool.
        # TYPE sglang:max_total_num_tokens gauge
        sglang:max_total_num_tokens{dp_rank="0",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",\
        tp_rank="0"} 51200.0
        sglang:max_total_num_tokens{dp_rank="1",engine_type="unified",model_name="Qwen/Qwen3-8B",pp_rank="0",\
        tp_rank="0"} 51200.0
        """;

    private EngineExpositions() {
    }
}
