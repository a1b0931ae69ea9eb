package dev.sluice.transport.tokenize.hf;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.sluice.transport.tokenize.Tokenizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * A model's {@code tokenizer.json} in the Hugging Face tokenizers (Rust) through DJL's binding. Special tokens are
 * added as the model's configuration says: the tokenizer's post-processor decides which go around a text (a BOS
 * token, say), and an {@code add_bos_token} or {@code add_eos_token} set in {@code tokenizer_config.json} overrides
 * it for that token, as Hugging Face's tokenizer classes that read those flags do.
 *
 * <p>DJL is put offline before its first use ({@code ai.djl.offline}, {@code OPT_OUT_TRACKING}): it then loads the
 * native library from its own jar (extracted once to its cache directory, {@code ~/.djl.ai} or
 * {@code ENGINE_CACHE_DIR}), downloads nothing and reports nothing. Thread-safe: encoding is a JNI call into a
 * shared, immutable Rust tokenizer, made for a virtual thread on a platform thread ({@link NativeCalls}) so that it
 * does not hold a carrier; {@link #close} frees the tokenizer and must come after the last encode.
 */
final class HfTokenizer implements Tokenizer, AutoCloseable {
    static {
        DjlOffline.apply();
    }

    private final HuggingFaceTokenizer tokenizer;
    private final Vocabulary vocabulary;
    private final int[] prefix;
    private final int[] suffix;
    private final NativeCalls calls;

    private HfTokenizer(HuggingFaceTokenizer tokenizer, Vocabulary vocabulary, int[] prefix, int[] suffix,
                        NativeCalls calls) {
        this.tokenizer = tokenizer;
        this.calls = calls;
        this.vocabulary = vocabulary;
        this.prefix = prefix;
        this.suffix = suffix;
    }

    /**
     * Loads {@code tokenizerJson}; encoding for virtual threads runs through {@code calls}.
     *
     * @throws IOException              the file cannot be read or is not a tokenizer (the message says which).
     * @throws IllegalArgumentException the configured BOS or EOS token is not one of the tokenizer's tokens.
     */
    static HfTokenizer load(Path tokenizerJson, TokenizerConfig config, NativeCalls calls) throws IOException {
        Vocabulary vocabulary = Vocabulary.read(tokenizerJson);
        HuggingFaceTokenizer tokenizer;
        try {
            // No truncation and no padding: a prompt is tokenized whole, as the engine tokenizes it.
            tokenizer = HuggingFaceTokenizer.newInstance(tokenizerJson, Map.of("truncation", "false",
                "padding", "false", "addSpecialTokens", "false"));
        } catch (RuntimeException e) {
            throw new IOException(tokenizerJson + " is not a tokenizer the Hugging Face tokenizers library reads: "
                + e.getMessage(), e);
        }
        try {
            int[] plain = ids(tokenizer, "a", false);
            int[] special = ids(tokenizer, "a", true);
            int at = indexOf(special, plain);
            if (at < 0) {
                throw new IllegalArgumentException(tokenizerJson + ": its post-processor changes a text's tokens, "
                    + "not only adds special tokens around them; sluice cannot add special tokens as it does");
            }
            int[] prefix = Arrays.copyOfRange(special, 0, at);
            int[] suffix = Arrays.copyOfRange(special, at + plain.length, special.length);
            prefix = override(prefix, config.addBosToken(), id(vocabulary, config, "bos_token"), true);
            suffix = override(suffix, config.addEosToken(), id(vocabulary, config, "eos_token"), false);
            return new HfTokenizer(tokenizer, vocabulary, prefix, suffix, calls);
        } catch (RuntimeException e) {
            tokenizer.close();
            throw e;
        }
    }

    /** The tokens of {@code text}, without special tokens. */
    @Override
    public int[] encode(CharSequence text) {
        String string = text.toString();
        return calls.call(() -> ids(tokenizer, string, false));
    }

    /** The tokens of {@code text}, with the model's special tokens around them when {@code addSpecialTokens}. */
    int[] encode(String text, boolean addSpecialTokens) {
        int[] ids = calls.call(() -> ids(tokenizer, text, false));
        if (!addSpecialTokens || (prefix.length == 0 && suffix.length == 0)) {
            return ids;
        }
        int[] all = new int[prefix.length + ids.length + suffix.length];
        System.arraycopy(prefix, 0, all, 0, prefix.length);
        System.arraycopy(ids, 0, all, prefix.length, ids.length);
        System.arraycopy(suffix, 0, all, prefix.length + ids.length, suffix.length);
        return all;
    }

    /** Ids {@code 0..size-1} are the model's. */
    int vocabularySize() {
        return vocabulary.size();
    }

    /** The special tokens added around a text: before, after. */
    int[][] specialTokens() {
        return new int[][] {prefix.clone(), suffix.clone()};
    }

    @Override
    public void close() {
        tokenizer.close();
    }

    private static int[] ids(HuggingFaceTokenizer tokenizer, String text, boolean addSpecialTokens) {
        long[] ids = tokenizer.encode(text, addSpecialTokens, false).getIds();
        int[] out = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = Math.toIntExact(ids[i]);
        }
        return out;
    }

    private static int indexOf(int[] haystack, int[] needle) {
        for (int at = 0; at + needle.length <= haystack.length; at++) {
            if (Arrays.equals(haystack, at, at + needle.length, needle, 0, needle.length)) {
                return at;
            }
        }
        return -1;
    }

    /** The id of a special token the config names, -1 when it names none. */
    private static int id(Vocabulary vocabulary, TokenizerConfig config, String name) {
        Object token = config.specialTokens().get(name);
        if (token == null) {
            return -1;
        }
        Integer id = vocabulary.addedTokens().get(token.toString());
        if (id == null) {
            throw new IllegalArgumentException("tokenizer_config.json's " + name + " '" + token
                + "' is not an added token of tokenizer.json");
        }
        return id;
    }

    /** Adds or drops the BOS (first) or EOS (last) token as the config's flag says; unchanged without a flag. */
    private static int[] override(int[] ids, Boolean add, int token, boolean first) {
        if (add == null || token < 0) {
            return ids;
        }
        boolean present = ids.length > 0 && ids[first ? 0 : ids.length - 1] == token;
        if (add == present) {
            return ids;
        }
        if (!add) {
            return first ? Arrays.copyOfRange(ids, 1, ids.length) : Arrays.copyOf(ids, ids.length - 1);
        }
        int[] out = new int[ids.length + 1];
        System.arraycopy(ids, 0, out, first ? 1 : 0, ids.length);
        out[first ? 0 : ids.length] = token;
        return out;
    }
}
