package dev.sluice.transport.cli;

import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.ProfileDescriber;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.router.RouterPlugins;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice config}: work with router-policy files. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Work with router-policy files.",
    subcommands = {ConfigCommand.Check.class, CommandLine.HelpCommand.class})
final class ConfigCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required (try: config check)");
    }

    /** {@code sluice config check FILE}. */
    @Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Validates a router-policy file as --router-policy-config would load it, resolves its plugin "
            + "sections against the linked plugins, and prints the resolved profiles.",
            "Exit codes: 0 valid, 2 invalid (the message names the file, line, key path and what was expected)."})
    static final class Check implements Callable<Integer> {
        @Parameters(paramLabel = "FILE", description = "The router-policy YAML file.")
        Path file;

        @Option(names = "--plugin-path", paramLabel = "DIR", description = "Directories of plugin jars to link.")
        List<Path> pluginPath = new ArrayList<>();

        @Option(names = "--router-queue-threshold", paramLabel = "FRAC",
            description = "Fallback busy threshold for models without a profile (default: queueing off).")
        Double queueThreshold;

        @Option(names = "--router-queue-policy", paramLabel = "POLICY", defaultValue = "fcfs",
            description = "Fallback queue policy for models without a profile: fcfs or wspt (default: fcfs).")
        QueuePolicy queuePolicy;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            if (queueThreshold != null && (!Double.isFinite(queueThreshold) || queueThreshold < 0)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                    "--router-queue-threshold must be finite and non-negative, was " + queueThreshold);
            }
            RouterPolicyConfig config;
            try {
                config = RouterPolicyLoader.load(file);
                RouterPlugins registry = PluginPath.registry(pluginPath);
                registry.resolveRequestClassifier(config.requestClassifier());
                registry.resolveWorkerSelector(config.workerSelection(), PolicySource.ROLE);
            } catch (ConfigException | RegistryException e) {
                err.println("sluice: " + e.getMessage());
                return 2;
            } catch (IOException e) {
                err.println("sluice: " + e.getMessage());
                return 2;
            }
            OptionalDouble threshold = queueThreshold == null ? OptionalDouble.empty()
                : OptionalDouble.of(queueThreshold);
            out.print(ProfileDescriber.describe(config, threshold, queuePolicy));
            out.println(file + ": valid");
            out.flush();
            return 0;
        }
    }
}
