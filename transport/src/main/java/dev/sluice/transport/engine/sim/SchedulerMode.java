package dev.sluice.transport.engine.sim;

/**
 * How a simulated rank admits, allocates and preempts ({@link SimEngineContext#scheduler}).
 * <ul>
 *   <li>{@link #MOCKER} (the default): Dynamo's mid-2025 mocker, kept as it is for parity with Dynamo's own
 *   simulations: admission counts every prompt block, cache hits included, against {@code 1 - watermark} of the
 *   cache; the whole prompt's blocks are taken at the first chunk; the oldest sequence is preempted when decode finds
 *   no block and regenerates its emitted tokens one per pass.</li>
 *   <li>{@link #VLLM_V1}: vLLM v1's scheduler and KV cache manager ({@code vllm/v1/core/sched/scheduler.py},
 *   {@code kv_cache_manager.py}): running requests are scheduled first, each allocating only the blocks its chunk
 *   or decode token needs; when none is free the newest running request is preempted (blocks freed, back to the
 *   front of the waiting queue) and later resumed by re-prefilling prompt plus output, hitting whatever of its own
 *   blocks survived; waiting requests are admitted only in a pass without preemption, counting the blocks they must
 *   allocate (cache hits discounted, evictable hits counted as taken) against free plus evictable blocks, with no
 *   watermark. See {@link VllmEngineCore}.</li>
 * </ul>
 * Immutable.
 */
public enum SchedulerMode {
    MOCKER, VLLM_V1
}
