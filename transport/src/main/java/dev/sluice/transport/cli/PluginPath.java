package dev.sluice.transport.cli;

import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.router.RouterPlugins;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Loads the plugin catalogs on the classpath plus those in the jars of {@code --plugin-path} directories. */
final class PluginPath {
    private PluginPath() {
    }

    static RouterPlugins registry(List<Path> directories) throws RegistryException, IOException {
        List<URL> jars = new ArrayList<>();
        for (Path directory : directories) {
            if (!Files.isDirectory(directory)) {
                throw new IOException("--plugin-path " + directory + " is not a directory");
            }
            try (Stream<Path> files = Files.list(directory)) {
                for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).sorted().toList()) {
                    jars.add(toUrl(jar));
                }
            }
        }
        ClassLoader parent = PluginPath.class.getClassLoader();
        ClassLoader loader = jars.isEmpty() ? parent : new URLClassLoader("sluice-plugins",
            jars.toArray(new URL[0]), parent);
        return RouterPlugins.loadCatalogs(loader);
    }

    private static URL toUrl(Path jar) throws IOException {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IOException("cannot load plugin jar " + jar + ": " + e.getMessage(), e);
        }
    }
}
