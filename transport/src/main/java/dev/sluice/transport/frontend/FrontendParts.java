package dev.sluice.transport.frontend;

import dev.sluice.core.router.ModelRouter;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.metrics.RouterMetrics;
import dev.sluice.transport.tokenize.PromptEncoder;
import java.util.List;

/**
 * What the endpoints share: the settings, the router, the engines (by worker id), the model's prompt encoder, block
 * size, the router's metrics, the engines' health and their configuration errors.
 */
record FrontendParts(FrontendSettings settings, ModelRouter router, List<Engine> engines, PromptEncoder prompts,
                     int blockSize, RouterMetrics metrics, WorkerHealth health,
                     EngineConfigErrors configErrors) {
}
