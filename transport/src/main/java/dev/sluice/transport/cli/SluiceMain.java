package dev.sluice.transport.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sluice} command line. Usage errors exit with 2, failures with 1. */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = SluiceMain.Version.class,
    description = "Admission control for LLM inference serving.",
    subcommands = {DemoCommand.class, ServeCommand.class, SimulateCommand.class, ConfigCommand.class,
        MockEngineCommand.class, JournalCommand.class,
        ReplayCommand.class, CommandLine.HelpCommand.class})
public final class SluiceMain implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (try: sluice demo)");
    }

    /** Builds the command line with its exit-code conventions. */
    public static CommandLine commandLine() {
        return new CommandLine(new SluiceMain()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    public static void main(String[] args) {
        // Chronicle logs its file mappings at INFO; a command line shows only what needs attention.
        if (System.getProperty("org.slf4j.simpleLogger.log.net.openhft") == null) {
            System.setProperty("org.slf4j.simpleLogger.log.net.openhft", "warn");
        }
        System.exit(commandLine().execute(args));
    }

    /** The version from the jar's manifest, or "development". */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = SluiceMain.class.getPackage().getImplementationVersion();
            return new String[] {"sluice " + (version != null ? version : "development build"),
                "Java " + Runtime.version()};
        }
    }
}
