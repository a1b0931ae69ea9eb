package dev.sluice.transport.tokenize.hf;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Run by {@link OfflineLoadingTest} in a process without a network: loads a model directory the way {@code serve}
 * does and prints the ids of one text and DJL's offline switch.
 */
public final class OfflineTokenizerProbe {
    private OfflineTokenizerProbe() {
    }

    public static void main(String[] args) throws Exception {
        try (TokenizerRegistry registry = new TokenizerRegistry()) {
            HfPromptEncoder encoder = registry.load(Path.of(args[0]));
            System.out.println("ids " + Arrays.toString(encoder.tokenize(args[1], true)));
            System.out.println("offline " + System.getProperty("ai.djl.offline"));
        }
    }
}
