package dev.sluice.perf.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.cli.SluiceMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The help of every command, perf's {@code simulate} ones included, as {@code --help} prints it: complete, with no
 * picocli warning (an unescaped {@code %} in a description makes picocli warn and print the raw text) and no word
 * of the project's internal history (issue numbers).
 */
class HelpTextTest {
    private static final Pattern INTERNAL = Pattern.compile("(?i)\\bissue\\b");

    @Test
    void shouldPrintEveryCommandsHelpWithoutWarningsOrIssueNumbers() {
        List<List<String>> commands = new ArrayList<>();
        collect(SluiceMain.commandLine(), new ArrayList<>(), commands);
        assertTrue(commands.size() > 10, () -> "commands found: " + commands);
        for (List<String> command : commands) {
            List<String> args = new ArrayList<>(command);
            args.add("--help");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            PrintStream original = System.err;
            System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
            int code;
            try {
                picocli.CommandLine cli = SluiceMain.commandLine();
                cli.setOut(new PrintWriter(out, true));
                cli.setErr(new PrintWriter(err, true));
                code = cli.execute(args.toArray(String[]::new));
            } finally {
                System.setErr(original);
            }
            String name = String.join(" ", args);
            String help = out.toString();
            assertEquals(0, code, name);
            assertTrue(help.startsWith("Usage: sluice"), () -> name + ":\n" + help);
            assertEquals("", err + stderr.toString(StandardCharsets.UTF_8), name);
            assertFalse(INTERNAL.matcher(help).find(), () -> name + " mentions an issue:\n" + help);
        }
    }

    /** The path of every command under {@code cli} (the top command's is empty), the help command aside. */
    private static void collect(picocli.CommandLine cli, List<String> path, List<List<String>> commands) {
        commands.add(List.copyOf(path));
        for (var sub : cli.getSubcommands().entrySet()) {
            if (sub.getKey().equals("help") || !sub.getValue().getCommandName().equals(sub.getKey())) {
                continue;
            }
            List<String> child = new ArrayList<>(path);
            child.add(sub.getKey());
            collect(sub.getValue(), child, commands);
        }
    }
}
