package dev.sluice.transport.cli;

import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.transport.frontend.JournalSetup;
import dev.sluice.transport.frontend.RouterModes;
import java.time.Duration;
import java.util.OptionalDouble;

/**
 * The parts of a {@link dev.sluice.transport.frontend.FrontendSettings} that {@code serve} and {@code demo} build
 * alike from their options: the router's context and the journal's setup. Stateless.
 */
final class FrontendAssembly {
    private FrontendAssembly() {
    }

    /**
     * The router for {@code modelName} under the loaded policy.
     *
     * @param fallbackClassifier    the classifier when the policy names none, or {@code null} for pass-through.
     * @param classificationTimeout the longest classification, {@link Duration#ZERO} for none.
     * @throws IllegalArgumentException an unknown router mode (the message names it).
     */
    static RouterContext router(PolicySource.Loaded policy, String modelName, OptionalDouble threshold,
                                QueuePolicy queuePolicy, String routerMode,
                                RequestClassifierFactory fallbackClassifier, Duration classificationTimeout) {
        RequestClassifierFactory classifier = policy.classifier() != null ? policy.classifier() : fallbackClassifier;
        return new RouterContext()
            .profile(policy.config().profileFor(modelName, threshold, queuePolicy))
            .classifierFactory(classifier)
            .classificationTimeout(classificationTimeout)
            .workerSelector(RouterModes.parse(routerMode).selector(policy.selector()));
    }

    /** The classifier type the journal records: the policy's, else {@code fallbackName}. */
    static String classifierName(PolicySource.Loaded policy, String fallbackName) {
        return policy.config().requestClassifier().map(c -> c.type()).orElse(fallbackName);
    }

    /** The journal's setup for {@code context} ({@code null} with {@code --no-journal}: no journal). */
    static JournalSetup journal(JournalContext context, PolicySource.Loaded policy, String classifierName,
                                OptionalDouble threshold, QueuePolicy queuePolicy) {
        if (context == null) {
            return null;
        }
        return new JournalSetup(context, policy.config().source(), policy.text(), classifierName, threshold,
            queuePolicy);
    }

    /**
     * {@code context} for one of several journaled models: the same policies, in a sub-directory named after the
     * model (characters other than letters, digits, {@code .}, {@code _} and {@code -} become {@code _}).
     */
    static JournalContext journalOf(JournalContext context, String model) {
        return new JournalContext(context.directory().resolve(model.replaceAll("[^A-Za-z0-9._-]", "_")))
            .retainCycles(context.retainCycles()).failurePolicy(context.failurePolicy())
            .minFreeBytes(context.minFreeBytes());
    }
}
