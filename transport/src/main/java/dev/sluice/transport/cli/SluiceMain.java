package dev.sluice.transport.cli;

import java.io.PrintWriter;
import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sluice} command line: the built-in commands, and those other modules add through
 * {@link SubcommandProvider} ({@code simulate}, when perf is on the classpath). Usage errors print their message and
 * a one-line hint ({@code Try 'sluice serve --help' ...}) and exit with 2; failures exit with 1.
 */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = SluiceMain.Version.class,
    description = "Admission control for LLM inference serving.")
public final class SluiceMain implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The top command; {@link #commandLine()} adds its subcommands. */
    public SluiceMain() {
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (try: sluice demo)");
    }

    /** Builds the command line with its exit-code conventions; the added commands follow demo and serve. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new SluiceMain());
        cli.addSubcommand(new DemoCommand());
        cli.addSubcommand(new ServeCommand());
        for (SubcommandProvider provider : ServiceLoader.load(SubcommandProvider.class,
            SluiceMain.class.getClassLoader())) {
            cli.addSubcommand(provider.command());
        }
        cli.addSubcommand(new ConfigCommand());
        cli.addSubcommand(new MockEngineCommand());
        cli.addSubcommand(new JournalCommand());
        cli.addSubcommand(new ReplayCommand());
        cli.addSubcommand(new CommandLine.HelpCommand());
        cli.setParameterExceptionHandler(SluiceMain::usageError);
        // Set last: picocli applies it to the subcommands present when it is called.
        return cli.setCaseInsensitiveEnumValuesAllowed(true);
    }

    /**
     * A usage error: the message, picocli's suggestions for a mistyped option or command, and a one-line hint at the
     * command's help, instead of the whole help, which would scroll the message away. Exit status 2.
     */
    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        PrintWriter err = command.getErr();
        err.println("sluice: " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return command.getCommandSpec().exitCodeOnInvalidInput();
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
