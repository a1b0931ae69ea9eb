package dev.sluice.transport.cli;

import dev.sluice.transport.tokenize.PromptEncoder;
import dev.sluice.transport.tokenize.WordPromptEncoder;
import dev.sluice.transport.tokenize.hf.TokenizerRegistry;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code serve}'s {@code --tokenizer}: the model's own tokenizer and chat template, or the word tokenizer. */
final class TokenizerOptions {
    @Option(names = "--tokenizer", paramLabel = "DIR",
        description = {"The model's Hugging Face directory: its tokenizer.json, tokenizer_config.json and, if there, "
            + "chat_template.jinja. Chats are rendered with the model's chat template, prompts tokenized as the "
            + "engine tokenizes them, and remote engines are sent the token ids (prompt as a list of ids).",
            "Without it: the word tokenizer (the simulator's), and remote engines are sent the prompt as text."})
    Path directory;

    /**
     * The model's prompt encoder, loaded through {@code registry} (one per directory).
     *
     * @throws PolicySource.StartupException the directory cannot be used; the message names the file and why.
     */
    PromptEncoder encoder(TokenizerRegistry registry) throws PolicySource.StartupException {
        return encoder(registry, directory, "--tokenizer");
    }

    /**
     * The prompt encoder of the tokenizer in {@code directory} ({@code null}: the word tokenizer), loaded through
     * {@code registry}; {@code what} names where the directory was given in an error.
     *
     * @throws PolicySource.StartupException the directory cannot be used; the message names the file and why.
     */
    static PromptEncoder encoder(TokenizerRegistry registry, Path directory, String what)
        throws PolicySource.StartupException {
        if (directory == null) {
            return WordPromptEncoder.INSTANCE;
        }
        try {
            return registry.load(directory);
        } catch (IOException | RuntimeException e) {
            throw new PolicySource.StartupException(what + " " + directory + ": " + e.getMessage(), e);
        }
    }
}
