/**
 * A model's own tokenizer, from a Hugging Face model directory ({@code tokenizer.json}, {@code tokenizer_config.json},
 * optionally {@code chat_template.jinja}): the Rust tokenizers through DJL's binding, whose native library is loaded
 * from its jar with DJL offline (nothing is downloaded), and the chat template rendered by Jinjava as the engines
 * render it with jinja2. {@link dev.sluice.transport.tokenize.hf.TokenizerRegistry} loads one per directory.
 *
 * <pre>
 *   chat messages ─▶ HfPromptEncoder ─▶ ChatTemplate (Jinjava; JinjaSource, PyMethods, PyJson) ─▶ text
 *   text ─▶ HfTokenizer (DJL: encode, special tokens as tokenizer_config.json says) ─▶ token ids
 * </pre>
 *
 * Thread-safe: an encoder is shared by every request thread of its model.
 */
package dev.sluice.transport.tokenize.hf;
