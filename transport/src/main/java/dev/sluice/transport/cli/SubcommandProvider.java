package dev.sluice.transport.cli;

/**
 * A command that another module adds to {@code sluice}. {@link SluiceMain} finds every provider on the classpath
 * through {@link java.util.ServiceLoader} (list the class in
 * {@code META-INF/services/dev.sluice.transport.cli.SubcommandProvider}) and offers its command beside the
 * built-in ones, in {@code --help} too; {@code sluice simulate} comes from the perf module this way, since
 * transport cannot depend on it. Called once per command line, on the thread that builds it.
 */
public interface SubcommandProvider {
    /** A new instance of a picocli {@code @Command} class, with its options and subcommands. */
    Object command();
}
