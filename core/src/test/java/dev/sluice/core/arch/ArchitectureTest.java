package dev.sluice.core.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The house rules on dependencies, read from core's sources: core never imports transport, plugins or perf; the
 * plugin-facing packages (api, spi, config) do not reach into the router; there are no package cycles.
 */
class ArchitectureTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/sluice/core");
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.sluice\\.([a-z]+)(?:\\.([a-z]+))?");

    private static Map<String, Set<String>> packageDependencies() throws IOException {
        Map<String, Set<String>> deps = new HashMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String pkg = "core." + SOURCES.relativize(file.getParent()).toString().replace('/', '.');
                Set<String> targets = deps.computeIfAbsent(pkg, k -> new HashSet<>());
                Matcher m = REFERENCE.matcher(Files.readString(file));
                while (m.find()) {
                    String target = m.group(2) == null ? m.group(1) : m.group(1) + "." + m.group(2);
                    if (!target.equals(pkg)) {
                        targets.add(target);
                    }
                }
            }
        }
        return deps;
    }

    @Test
    void coreShouldNeverImportTransportPluginsOrPerf() throws IOException {
        List<String> offences = new ArrayList<>();
        packageDependencies().forEach((pkg, targets) -> targets.stream()
            .filter(t -> t.startsWith("transport") || t.startsWith("plugins") || t.startsWith("perf"))
            .forEach(t -> offences.add(pkg + " -> " + t)));
        assertEquals(List.of(), offences);
    }

    @Test
    void pluginFacingPackagesShouldNotDependOnTheRouter() throws IOException {
        Map<String, Set<String>> deps = packageDependencies();
        for (String pkg : List.of("core.api", "core.spi", "core.config")) {
            assertTrue(deps.containsKey(pkg), pkg + " exists");
            assertTrue(deps.get(pkg).stream().noneMatch(t -> t.equals("core.router") || t.equals("core.queue")),
                pkg + " depends on " + deps.get(pkg));
        }
    }

    @Test
    void shouldHaveNoPackageCycles() throws IOException {
        Map<String, Set<String>> deps = packageDependencies();
        for (String start : deps.keySet()) {
            List<String> cycle = findCycle(start, start, deps, new ArrayList<>(), new HashSet<>());
            assertEquals(List.of(), cycle, "package cycle through " + start);
        }
    }

    private static List<String> findCycle(String start, String at, Map<String, Set<String>> deps, List<String> path,
                                          Set<String> seen) {
        for (String next : deps.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                List<String> cycle = new ArrayList<>(path);
                cycle.add(at);
                cycle.add(start);
                return cycle;
            }
            if (seen.add(next)) {
                path.add(at);
                List<String> found = findCycle(start, next, deps, path, seen);
                path.remove(path.size() - 1);
                if (!found.isEmpty()) {
                    return found;
                }
            }
        }
        return List.of();
    }
}
