package dev.sluice.transport.tokenize.hf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The models' prompt encoders, one per Hugging Face model directory: {@link #load} opens a directory once and hands
 * the same encoder to every model served from it (two paths to one directory are one). Their tokenizers' native
 * calls for virtual threads run on the registry's platform threads ({@link NativeCalls}, one per core, started at the
 * first load). Loading is a cold path (startup); it is serialized. Thread-safe; {@link #close} frees every encoder
 * and stops those threads, after the last request, and is idempotent.
 */
public final class TokenizerRegistry implements AutoCloseable {
    private final Map<Path, HfPromptEncoder> encoders = new LinkedHashMap<>();
    private NativeCalls calls;
    private boolean closed;

    /** An empty registry. */
    public TokenizerRegistry() {
    }

    /**
     * The encoder of the model directory {@code directory}, loading it the first time.
     *
     * @throws IOException the directory is not a model directory sluice can read; the message names the file and
     *                     what is wrong.
     */
    public synchronized HfPromptEncoder load(Path directory) throws IOException {
        if (closed) {
            throw new IllegalStateException("the tokenizer registry is closed");
        }
        Path key = directory.toAbsolutePath().normalize();
        try {
            key = key.toRealPath();
        } catch (IOException e) {
            // open() says what is wrong with a path that does not resolve.
        }
        HfPromptEncoder encoder = encoders.get(key);
        if (encoder == null) {
            if (calls == null) {
                calls = NativeCalls.platformThreads();
            }
            encoder = HfPromptEncoder.open(key, calls);
            encoders.put(key, encoder);
        }
        return encoder;
    }

    /** Frees every loaded tokenizer, last loaded first. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<HfPromptEncoder> loaded = new ArrayList<>(encoders.values());
        for (int i = loaded.size() - 1; i >= 0; i--) {
            loaded.get(i).close();
        }
        encoders.clear();
        if (calls != null) {
            calls.close();
        }
    }
}
