package dev.sluice.transport.frontend;

import dev.sluice.core.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads the engines file when it changes and brings each model's engines in line with it: an engine the file
 * now names joins its model, one it no longer names leaves (no new request goes to it; those running finish), one
 * whose settings changed leaves and joins again as a new worker. Nothing queued or parked is dropped: the router
 * keeps its queue and places it on the engines that remain. A file that cannot be read or is not valid is logged
 * (with the line and key at fault) and changes nothing. Adding or removing a model needs a restart (each model has
 * its own router and journal, set up at start): that part of a change is logged and left. Every poll also stops
 * the engines that left and have finished their last request.
 *
 * <p>Threads: one daemon platform thread ({@code sluice-engines-file}) polls every interval, comparing the file's
 * bytes; {@link #reload} runs on the caller's thread for tests. Thread-safe; {@link #close} is idempotent.
 */
public final class EnginesFileWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EnginesFileWatcher.class);

    private final Path file;
    private final Frontend frontend;
    private final BiFunction<EnginesFile.Model, EngineSetup.Remote, List<RemoteEngine>> engines;
    private final Thread thread;
    private final long intervalNs;
    private byte[] seen;
    /** Each model's engines as last applied, by URL. */
    private final Map<String, Map<String, RemoteEngine>> applied = new LinkedHashMap<>();
    private volatile boolean stopped;

    /**
     * @param file     the engines file the frontend was started from.
     * @param engines  a model's engines as the file describes them, given the model's setup at start-up (for its
     *                 block size and defaults); throws {@link IllegalArgumentException} naming a bad value.
     * @param interval how often the file is looked at.
     */
    private EnginesFileWatcher(Path file, Frontend frontend,
                               BiFunction<EnginesFile.Model, EngineSetup.Remote, List<RemoteEngine>> engines,
                               Duration interval) {
        this.file = Objects.requireNonNull(file, "file");
        this.frontend = Objects.requireNonNull(frontend, "frontend");
        this.engines = Objects.requireNonNull(engines, "engines");
        this.intervalNs = interval.toNanos();
        this.seen = bytes();
        for (ModelServing model : frontend.models()) {
            Map<String, RemoteEngine> byUrl = new LinkedHashMap<>();
            if (model.model().engines() instanceof EngineSetup.Remote remote) {
                remote.engines().forEach(engine -> byUrl.put(engine.url(), engine));
            }
            applied.put(model.name(), byUrl);
        }
        this.thread = Thread.ofPlatform().daemon().name("sluice-engines-file").unstarted(this::run);
    }

    /** Watches {@code file} for {@code frontend}, polling every {@code interval}. */
    public static EnginesFileWatcher start(Path file, Frontend frontend,
                                           BiFunction<EnginesFile.Model, EngineSetup.Remote, List<RemoteEngine>>
                                               engines, Duration interval) {
        EnginesFileWatcher watcher = new EnginesFileWatcher(file, frontend, engines, interval);
        watcher.thread.start();
        return watcher;
    }

    /** Watches {@code file} for {@code frontend} without a thread of its own: {@link #poll} does the work. */
    static EnginesFileWatcher manual(Path file, Frontend frontend,
                                     BiFunction<EnginesFile.Model, EngineSetup.Remote, List<RemoteEngine>> engines) {
        return new EnginesFileWatcher(file, frontend, engines, Duration.ofSeconds(1));
    }

    private void run() {
        while (!stopped) {
            LockSupport.parkNanos(intervalNs);
            if (!stopped) {
                try {
                    poll();
                } catch (RuntimeException e) {
                    // A defect in one reload must not stop the next.
                    LOG.error("engines file {}: reload failed: {}", file, e.toString(), e);
                }
            }
        }
    }

    /** Reloads if the file's bytes changed, then stops the engines that left and are idle. */
    synchronized void poll() {
        byte[] now = bytes();
        if (now != null && !Arrays.equals(now, seen)) {
            seen = now;
            reload();
        }
        for (ModelServing model : frontend.models()) {
            model.closeIdle();
        }
    }

    /**
     * Reads the file and applies it.
     *
     * @return whether the file was valid (and so applied).
     */
    synchronized boolean reload() {
        EnginesFile read;
        try {
            read = EnginesFile.read(file);
        } catch (ConfigException e) {
            LOG.error("engines file {} changed but is not valid, so nothing changes: {}", file, e.getMessage());
            return false;
        }
        for (String name : read.models().keySet()) {
            if (frontend.model(name) == null) {
                LOG.warn("engines file {}: model {} is new; serving a new model needs a restart", file, name);
            }
        }
        for (ModelServing model : frontend.models()) {
            EnginesFile.Model wanted = read.models().get(model.name());
            if (wanted == null) {
                LOG.warn("engines file {}: model {} is no longer listed; it is served, with its engines, until a "
                    + "restart", file, model.name());
            } else if (model.model().engines() instanceof EngineSetup.Remote remote) {
                apply(model, remote, wanted);
            }
        }
        return true;
    }

    private void apply(ModelServing model, EngineSetup.Remote remote, EnginesFile.Model wanted) {
        Map<String, RemoteEngine> target = new LinkedHashMap<>();
        try {
            engines.apply(wanted, remote).forEach(engine -> target.put(engine.url(), engine));
        } catch (IllegalArgumentException e) {
            LOG.error("engines file {}: model {}: {}; its engines stay as they are", file, model.name(),
                e.getMessage());
            return;
        }
        Map<String, RemoteEngine> current = applied.get(model.name());
        for (String url : Set.copyOf(current.keySet())) {
            RemoteEngine before = current.get(url);
            if (!before.equals(target.get(url))) {
                model.leave(url);
                current.remove(url);
            }
        }
        for (RemoteEngine engine : target.values()) {
            if (!current.containsKey(engine.url())) {
                try {
                    model.join(engine);
                    current.put(engine.url(), engine);
                } catch (IllegalArgumentException | IllegalStateException e) {
                    LOG.error("engines file {}: model {}: engine {} cannot join: {}", file, model.name(),
                        engine.url(), e.getMessage());
                }
            }
        }
    }

    private byte[] bytes() {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            // Between an editor's delete and write, or a file moved away: looked at again next time.
            return null;
        }
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
    }
}
