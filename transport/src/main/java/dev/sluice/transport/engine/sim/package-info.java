/**
 * The simulated engine: a Java port of Dynamo's mid-2025 mocker, and a vLLM v1 mode. Each worker rank runs a
 * scheduling loop ({@code RankEngine}: the mocker's {@code SimEngineCore} by default, for parity with Dynamo's
 * simulations, or vLLM v1's {@code VllmEngineCore}: per-chunk allocation, admission against free plus evictable
 * blocks, newest-first preemption resumed by re-prefill) over a KV cache with prefix caching and reports KV events
 * and load as a real engine would.
 *
 * <pre>
 *   submit/cancel (any thread) ──▶ SimulatedWorker inbox ──▶ driver thread: doWork(now)
 *                                                             │  per rank: RankEngine.advanceTo(now)
 *   RealTimeRunner (thread per worker, parks until next pass) │    pass: admit ─▶ prefill ─▶ decode
 *   or VirtualClockDriver (discrete events, one thread)       │          KvManager (Use/Promote/Deref/Destroy)
 *                                                             ▼          ─▶ KvEventSink (Stored/Removed)
 *                                     at the pass end: onToken / onFinished to each request's listener
 * </pre>
 *
 * Timing follows the mocker's polynomial model ({@code PerfModel}), or with {@code CostModel.ATTENTION} a prefill
 * term that attends over the cached context, divided by {@code speedup_ratio}. Deviations
 * from the mocker, each for a cause: a preempted request does not hand out again the tokens it already delivered
 * (so a stream always has exactly {@code max_tokens} tokens); newly stored blocks are published as one
 * {@code Stored} event per contiguous run (so every event's parent is right even when a middle block was still
 * resident); a request that could never fit the KV cache, or the token budget without chunked prefill, fails at
 * once instead of blocking the queue forever.
 */
package dev.sluice.transport.engine.sim;
