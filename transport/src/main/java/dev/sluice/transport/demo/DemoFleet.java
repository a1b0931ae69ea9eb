package dev.sluice.transport.demo;

import dev.sluice.transport.engine.sim.SimEngineContext;
import java.util.Locale;

/** The demo's simulated engines, over HTTP and in-process alike, and how the demo describes them. Stateless. */
public final class DemoFleet {
    private DemoFleet() {
    }

    /**
     * The demo's engines, sized so that the workload puts them under KV pressure. A chat prompt is 1,000 to 2,600
     * tokens, most of it one of three shared system prompts (served from the prefix cache once seen), and an agent
     * conversation grows to several thousand tokens; 384 blocks of 64 tokens (24,576 tokens) per worker hold a few
     * dozen such requests with their answers, so under the burst the engines keep requests waiting for KV space.
     * Their first tokens come late, the router's booked prefill stays above the busy threshold (1.0 of
     * max_num_batched_tokens 2048, lower than the mocker's 8192 for the same reason) and requests queue in the
     * router until their 2 s budget expires (429). The mocker's timing at real speed (speedup 1.0), so latencies
     * read as a real fleet's would. A new context each call: the caller may change it.
     */
    public static SimEngineContext engine() {
        return new SimEngineContext().numGpuBlocks(384).blockSize(64).maxNumBatchedTokens(2048).speedupRatio(1.0)
            .seed(7);
    }

    /** One line: the fleet's size and its engines' settings. */
    static String describe(int workers, SimEngineContext engine) {
        return String.format(Locale.ROOT, "%d simulated workers: %d KV blocks of %d tokens each, "
                + "max_num_batched_tokens %d, speedup %.1fx, prefix caching %s", workers, engine.numGpuBlocks(),
            engine.blockSize(), engine.maxNumBatchedTokens(), engine.speedupRatio(),
            engine.enablePrefixCaching() ? "on" : "off");
    }
}
