package dev.sluice.transport.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Transport's packages in layers, read from its sources: a package uses only packages of lower layers (so there is
 * no cycle and no arrow back up), and nothing in transport names perf.
 */
class LayeringTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/sluice/transport");
    private static final Pattern NAME = Pattern.compile("\\bdev\\.sluice\\.(transport(?:\\.[a-z]+)*|perf)\\b");
    /** Bottom first: wire format and engines, then what serves over them, then the demo, then the command line. */
    private static final Map<String, Integer> LAYERS = Map.ofEntries(Map.entry("engine", 0), Map.entry("tokenize", 0),
        Map.entry("metrics", 0), Map.entry("plot", 0), Map.entry("openai", 1), Map.entry("engine.http", 2),
        Map.entry("engine.sim", 2), Map.entry("engine.mock", 3), Map.entry("simulation", 3),
        Map.entry("frontend", 3), Map.entry("demo", 4), Map.entry("cli", 5));

    @Test
    void shouldUseOnlyLowerLayersAndNeverPerf() throws IOException {
        List<String> offences = new ArrayList<>();
        TreeSet<String> packages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(file -> {
                String from = SOURCES.relativize(file.getParent()).toString().replace('/', '.');
                packages.add(from);
                Matcher m = NAME.matcher(read(file));
                while (m.find()) {
                    String to = m.group(1).equals("perf") ? "perf" : m.group(1).substring("transport".length())
                        .replaceFirst("^\\.", "");
                    to = packageOf(to);
                    if (!to.equals(from) && (to.equals("perf") || !LAYERS.containsKey(from)
                        || LAYERS.getOrDefault(to, Integer.MAX_VALUE) >= LAYERS.get(from))) {
                        offences.add(from + " -> " + to + " (" + file.getFileName() + ")");
                    }
                }
            });
        }
        assertEquals(List.of(), offences.stream().distinct().toList());
        assertEquals(new TreeSet<>(LAYERS.keySet()), packages, "every package has its layer");
    }

    /** The longest known package a referenced name starts with (a class's package, not the class). */
    private static String packageOf(String name) {
        String best = null;
        for (String p : LAYERS.keySet()) {
            if ((name.equals(p) || name.startsWith(p + ".")) && (best == null || p.length() > best.length())) {
                best = p;
            }
        }
        return best != null ? best : name;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
