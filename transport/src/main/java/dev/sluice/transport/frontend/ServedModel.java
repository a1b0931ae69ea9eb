package dev.sluice.transport.frontend;

import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.tokenize.PromptEncoder;
import java.util.Objects;

/**
 * One model a frontend serves, with its own router, engines, journal and tokenizer.
 *
 * @param name    the name clients ask for.
 * @param router  the router's context (profile, classifier, selector, observer); clock and block size are the
 *                frontend's to set.
 * @param engines the engines: the embedded simulated fleet or remote servers.
 * @param journal where to journal, or {@code null} for no journal.
 * @param prompts the model's tokenizer (and chat template): the word tokenizer, or a model's own, whose token ids
 *                remote engines are then sent.
 */
public record ServedModel(String name, RouterContext router, EngineSetup engines, JournalSetup journal,
                          PromptEncoder prompts) {
    public ServedModel {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(engines, "engines");
        Objects.requireNonNull(prompts, "prompts");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a model name must not be blank");
        }
    }
}
