package dev.sluice.transport.cli;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.config.QueuePolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** The router-policy options shared by {@code demo} and {@code serve}, in Dynamo's words. */
final class PolicyOptions {
    @Option(names = "--router-policy-config", paramLabel = "FILE",
        description = "Router-policy YAML (default: $DYN_ROUTER_POLICY_CONFIG, else the bundled demo policy).")
    Path policyFile;

    @Option(names = "--router-queue-threshold", paramLabel = "FRAC",
        description = "Busy threshold (fraction of max_num_batched_tokens) for a model without a policy profile; "
            + "unset: such a model never queues.")
    Double queueThreshold;

    @Option(names = "--router-queue-policy", defaultValue = "fcfs", paramLabel = "POLICY",
        description = "Queue policy for a model without a policy profile: fcfs or wspt (default: ${DEFAULT-VALUE}).")
    QueuePolicy queuePolicy;

    @Option(names = "--plugin-path", paramLabel = "DIR", description = "Directories of plugin jars to link.")
    List<Path> pluginPath = new ArrayList<>();

    @Option(names = "--classification-timeout", defaultValue = "0s", paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "Longest a request's classification may take, deferrals and parks included; past it the "
            + "request gets 504 classifier_timeout and a classify call blocking the scheduler is interrupted. "
            + "0s (default): no timeout, as in Dynamo.")
    Duration classificationTimeout;

    /** The classification timeout, checked: not negative. */
    Duration classificationTimeout(CommandLine commandLine) {
        if (classificationTimeout.isNegative()) {
            throw new CommandLine.ParameterException(commandLine,
                "--classification-timeout must not be negative, was " + classificationTimeout);
        }
        return classificationTimeout;
    }

    /** The fallback threshold, checked: finite and non-negative. */
    OptionalDouble threshold(CommandLine commandLine) {
        if (queueThreshold == null) {
            return OptionalDouble.empty();
        }
        if (!Double.isFinite(queueThreshold) || queueThreshold < 0) {
            throw new CommandLine.ParameterException(commandLine,
                "--router-queue-threshold must be finite and non-negative, was " + queueThreshold);
        }
        return OptionalDouble.of(queueThreshold);
    }

    /** The policy and the plugins it selects; a bad file or plugin is a {@link PolicySource.StartupException}. */
    PolicySource.Loaded load(DefaultSelectorSettings selectorDefaults) throws PolicySource.StartupException {
        return PolicySource.load(policyFile, pluginPath, selectorDefaults);
    }
}
