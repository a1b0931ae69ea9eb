/**
 * Tokenization, on the HTTP side: a model's {@link dev.sluice.transport.tokenize.PromptEncoder} turns the prompt a
 * request gives (text, token ids, chat messages) into the token ids the router hashes into KV blocks and the engine
 * prefills, so that identical prompts line up in the prefix caches, and says what a remote engine is sent (the text
 * for it to tokenize, or the ids). The word tokenizer ({@link dev.sluice.transport.tokenize.WordPromptEncoder}) is
 * the default; it needs no model files. A model's own tokenizer is in {@code tokenize.hf}. Stateless and
 * thread-safe.
 */
package dev.sluice.transport.tokenize;
