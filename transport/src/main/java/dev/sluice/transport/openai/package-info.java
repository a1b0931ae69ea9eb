/**
 * OpenAI-compatible wire format shared by the mock engine server and the sluice frontend: reading
 * {@code /v1/chat/completions} and {@code /v1/completions} request bodies into a {@link
 * dev.sluice.transport.openai.CompletionRequest} (its {@link dev.sluice.transport.openai.Prompt} in every shape the
 * API defines: text, token ids, chat messages), and writing completion, chunk, usage, model-list and error JSON
 * (Jackson) and Server-Sent Events frames. Token ids become text through {@link
 * dev.sluice.transport.openai.TokenText}. Everything here is stateless and thread-safe.
 */
package dev.sluice.transport.openai;
