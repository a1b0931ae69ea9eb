/**
 * Tokenization, on the HTTP side: a {@link dev.sluice.transport.tokenize.Tokenizer} turns the prompt text the
 * frontend (or the mock engine) receives into the token ids the router hashes into KV blocks and the engine
 * prefills, so that identical text lines up in the prefix caches. The word tokenizer is the default; it needs no
 * model files. Stateless and thread-safe.
 */
package dev.sluice.transport.tokenize;
