package dev.sluice.core.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The house rules on dependencies, read from the main sources of every module: modules depend only downwards (core,
 * then plugins, then transport, then perf); plugins use only core's API and SPI; transport and perf use only what
 * core's {@code module-info.java} exports to them; the plugin-facing packages do not reach into the router; there is
 * no package cycle anywhere; every arrow inside a module runs down the layers of the package picture in the project's
 * ARCHITECTURE.md; no main file is over 400 lines; and ARCHITECTURE.md names every package.
 * A reference counts wherever it appears (import, qualified name or javadoc link): a reader follows those too.
 */
class ArchitectureTest {
    /** Bottom to top: a module may use the ones before it. */
    private static final List<String> MODULES = List.of("core", "plugins", "transport", "perf");
    private static final Path ROOT = Path.of("..");
    private static final Pattern REFERENCE =
        Pattern.compile("\\bdev\\.sluice\\.(core|plugins|transport|perf)((?:\\.[a-z][a-z0-9]*)*)");
    private static final Pattern EXPORT =
        Pattern.compile("^\\s*exports\\s+dev\\.sluice\\.core((?:\\.[a-z][a-z0-9]*)*)(?:\\s+to\\s+([^;]+))?;",
            Pattern.MULTILINE);

    /** Package ("transport.engine.http") to the packages its files reference. */
    private static Map<String, Set<String>> packageGraph() throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String module : MODULES) {
            Path sources = ROOT.resolve(module).resolve("src/main/java/dev/sluice").resolve(module);
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    String pkg = module + packageSuffix(sources.relativize(file.getParent()));
                    Set<String> targets = graph.computeIfAbsent(pkg, k -> new TreeSet<>());
                    Matcher m = REFERENCE.matcher(Files.readString(file));
                    while (m.find()) {
                        String target = m.group(1) + m.group(2);
                        if (!target.equals(pkg)) {
                            targets.add(target);
                        }
                    }
                }
            }
        }
        return graph;
    }

    private static String packageSuffix(Path relative) {
        String path = relative.toString().replace('/', '.');
        return path.isEmpty() ? "" : "." + path;
    }

    private static String module(String pkg) {
        int dot = pkg.indexOf('.');
        return dot < 0 ? pkg : pkg.substring(0, dot);
    }

    @Test
    void coreShouldNeverImportTransportPluginsOrPerf() throws IOException {
        List<String> offences = new ArrayList<>();
        packageGraph().forEach((pkg, targets) -> targets.stream()
            .filter(t -> module(pkg).equals("core") && !module(t).equals("core"))
            .forEach(t -> offences.add(pkg + " -> " + t)));
        assertEquals(List.of(), offences);
    }

    @Test
    void modulesShouldOnlyDependDownwards() throws IOException {
        List<String> offences = new ArrayList<>();
        packageGraph().forEach((pkg, targets) -> targets.stream()
            .filter(t -> MODULES.indexOf(module(t)) > MODULES.indexOf(module(pkg)))
            .forEach(t -> offences.add(pkg + " -> " + t)));
        assertEquals(List.of(), offences);
    }

    @Test
    void pluginFacingPackagesShouldNotDependOnTheRouter() throws IOException {
        Map<String, Set<String>> graph = packageGraph();
        Set<String> internal = Set.of("core.router", "core.host", "core.scheduler", "core.queue", "core.select",
            "core.journal");
        for (String pkg : List.of("core.api", "core.spi", "core.config")) {
            assertTrue(graph.containsKey(pkg), pkg + " exists");
            assertTrue(graph.get(pkg).stream().noneMatch(internal::contains), pkg + " depends on " + graph.get(pkg));
        }
    }

    @Test
    void pluginsShouldUseOnlyCoresApiAndSpi() throws IOException {
        List<String> offences = new ArrayList<>();
        packageGraph().forEach((pkg, targets) -> targets.stream()
            .filter(t -> module(pkg).equals("plugins") && module(t).equals("core"))
            .filter(t -> !t.equals("core.api") && !t.equals("core.spi"))
            .forEach(t -> offences.add(pkg + " -> " + t)));
        assertEquals(List.of(), offences);
    }

    @Test
    void transportAndPerfShouldUseOnlyWhatCoreExportsToThem() throws IOException {
        Map<String, Set<String>> exports = coreExports();
        List<String> offences = new ArrayList<>();
        packageGraph().forEach((pkg, targets) -> targets.stream()
            .filter(t -> !module(pkg).equals("core") && module(t).equals("core"))
            .filter(t -> {
                Set<String> to = exports.get(t);
                return to == null || !(to.isEmpty() || to.contains("dev.sluice." + module(pkg)));
            })
            .forEach(t -> offences.add(pkg + " -> " + t)));
        assertEquals(List.of(), offences);
    }

    /** Core's exported packages, each to the modules named (empty: to everyone). */
    private static Map<String, Set<String>> coreExports() throws IOException {
        Map<String, Set<String>> exports = new TreeMap<>();
        Matcher m = EXPORT.matcher(Files.readString(ROOT.resolve("core/src/main/java/module-info.java")));
        while (m.find()) {
            Set<String> to = new TreeSet<>();
            if (m.group(2) != null) {
                for (String target : m.group(2).split(",")) {
                    to.add(target.trim());
                }
            }
            exports.put("core" + m.group(1), to);
        }
        assertTrue(exports.containsKey("core.api") && exports.containsKey("core.spi"), exports.toString());
        return exports;
    }

    @Test
    void shouldHaveNoPackageCycles() throws IOException {
        Map<String, Set<String>> graph = packageGraph();
        for (String start : graph.keySet()) {
            List<String> cycle = findCycle(start, start, graph, new ArrayList<>(), new HashSet<>());
            assertEquals(List.of(), cycle, "package cycle through " + start);
        }
    }

    private static List<String> findCycle(String start, String at, Map<String, Set<String>> graph, List<String> path,
                                          Set<String> seen) {
        for (String next : graph.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                List<String> cycle = new ArrayList<>(path);
                cycle.add(at);
                cycle.add(start);
                return cycle;
            }
            if (seen.add(next)) {
                path.add(at);
                List<String> found = findCycle(start, next, graph, path, seen);
                path.remove(path.size() - 1);
                if (!found.isEmpty()) {
                    return found;
                }
            }
        }
        return List.of();
    }

    @Test
    void everyArrowShouldRunDownThePackagePicture() throws IOException {
        Map<String, Integer> layers = pictureLayers();
        Map<String, Set<String>> graph = packageGraph();
        assertEquals(graph.keySet(), layers.keySet(), "the picture holds every package once");
        List<String> upwards = new ArrayList<>();
        graph.forEach((pkg, targets) -> targets.stream()
            .filter(t -> module(t).equals(module(pkg)) && layers.containsKey(t) && layers.get(t) >= layers.get(pkg))
            .forEach(t -> upwards.add(pkg + " -> " + t)));
        assertEquals(List.of(), upwards, "arrows within a module run to layers on the left of the picture");
    }

    /** The picture's layer of each package: "module: a b | c | d" gives a and b layer 0, c 1, d 2. */
    private static Map<String, Integer> pictureLayers() throws IOException {
        String doc = Files.readString(ROOT.resolve("ARCHITECTURE.md"));
        int heading = doc.indexOf("## The package picture");
        assertTrue(heading >= 0, "ARCHITECTURE.md has a package picture");
        int start = doc.indexOf("```text\n", heading) + "```text\n".length();
        Map<String, Integer> layers = new TreeMap<>();
        for (String line : doc.substring(start, doc.indexOf("```", start)).split("\n")) {
            String module = line.substring(0, line.indexOf(':')).trim();
            String[] columns = line.substring(line.indexOf(':') + 1).split("\\|");
            for (int layer = 0; layer < columns.length; layer++) {
                for (String name : columns[layer].trim().split("\\s+")) {
                    String pkg = name.equals("(root)") ? module : module + "." + name;
                    assertTrue(layers.put(pkg, layer) == null, pkg + " is in the picture once");
                }
            }
        }
        return layers;
    }

    @Test
    void noMainFileShouldExceed400Lines() throws IOException {
        List<String> offences = new ArrayList<>();
        for (String module : MODULES) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/main/java"))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    long lines = Files.readAllLines(file).size();
                    if (lines > 400) {
                        offences.add(file + ": " + lines + " lines");
                    }
                }
            }
        }
        assertEquals(List.of(), offences);
    }

    @Test
    void noSourceLineShouldExceed120Columns() throws IOException {
        List<String> offences = new ArrayList<>();
        for (String module : MODULES) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src"))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    List<String> lines = Files.readAllLines(file);
                    for (int i = 0; i < lines.size(); i++) {
                        if (lines.get(i).length() > 120) {
                            offences.add(file + ":" + (i + 1) + ": " + lines.get(i).length() + " columns");
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), offences);
    }

    @Test
    void theArchitectureDocumentShouldNameEveryPackage() throws IOException {
        String doc = Files.readString(ROOT.resolve("ARCHITECTURE.md"));
        List<String> missing = packageGraph().keySet().stream()
            .filter(pkg -> !doc.contains("dev.sluice." + pkg)
                && !(pkg.contains(".") && doc.contains("`" + pkg.substring(pkg.indexOf('.') + 1) + "`")))
            .toList();
        assertEquals(List.of(), missing, "ARCHITECTURE.md names every package (as `sub.package` in its module's "
            + "section, or dev.sluice.module.sub.package)");
    }
}
