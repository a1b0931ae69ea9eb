package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.SelectionInputs;
import dev.sluice.core.api.WorkerSelectorParameters;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.spi.WorkerSelector;
import dev.sluice.core.spi.WorkerSelectorFactory;
import dev.sluice.core.spi.WorkerSelectorProvider;

/**
 * ThunderAgent's worker selection ({@code worker_selection} type {@code thunderagent}): honour the classifier's
 * soft target when it is an eligible candidate, so a program stays where its KV working set lives; otherwise take
 * the candidate with the lowest load, {@code active prefill tokens + active decode blocks x block size} (ties go to
 * the first candidate in worker order). Stateless; called on the router's scheduler thread.
 */
public final class ThunderAgentWorkerSelector implements WorkerSelector {
    /** The type name the {@code worker_selection} YAML selects. */
    public static final String TYPE = "thunderagent";

    private final int blockSize;

    ThunderAgentWorkerSelector(int blockSize) {
        this.blockSize = blockSize;
    }

    /** Admission parameters belong to the classifier: an instance of this selector takes none. */
    record NoParameters() {
    }

    /** The provider: parameters must be absent or an empty mapping. */
    public static final class Provider implements WorkerSelectorProvider {
        @Override
        public WorkerSelectorFactory provide(WorkerSelectorParameters parameters) throws ProviderException {
            parameters.bind(NoParameters.class);
            return context -> new ThunderAgentWorkerSelector(context.blockSize());
        }
    }

    @Override
    public int select(SelectionInputs inputs) {
        int count = inputs.candidateCount();
        WorkerWithDpRank target = inputs.softTarget();
        int best = NONE;
        long bestCost = Long.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            if (inputs.worker(i).equals(target)) {
                return i;
            }
            long cost = inputs.activePrefillTokens(i) + inputs.activeDecodeBlocks(i) * blockSize;
            if (cost < bestCost) {
                best = i;
                bestCost = cost;
            }
        }
        return best;
    }
}
