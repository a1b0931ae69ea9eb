// Talks to a running `sluice serve` with the official openai npm client: a plain and a streaming chat completion,
// a plain completion, and a 404 model_not_found for an unknown model. Exits non-zero with a message on the first failure.
import OpenAI from "openai";

const baseURL = process.argv[2];
const model = process.argv[3];
const client = new OpenAI({ baseURL, apiKey: "test", maxRetries: 0, timeout: 30_000 });

function check(condition, message) {
  if (!condition) {
    console.error(`openai-node check failed: ${message}`);
    process.exit(1);
  }
}

const chat = await client.chat.completions.create({
  model,
  messages: [{ role: "user", content: "Hello from the npm client" }],
  max_tokens: 8,
});
check(chat.choices[0].message.content.trim().length > 0, "empty chat completion");
check(chat.usage.completion_tokens === 8, `expected 8 completion tokens, got ${chat.usage.completion_tokens}`);

const stream = await client.chat.completions.create({
  model,
  messages: [{ role: "user", content: "Stream to the npm client" }],
  max_tokens: 6,
  stream: true,
  stream_options: { include_usage: true },
});
let text = "";
let usage = null;
for await (const chunk of stream) {
  for (const choice of chunk.choices) {
    text += choice.delta?.content ?? "";
  }
  if (chunk.usage) {
    usage = chunk.usage;
  }
}
check(text.trim().split(/\s+/).length === 6, `expected 6 streamed words, got "${text}"`);
check(usage && usage.completion_tokens === 6, "missing usage in the final chunk");

const completion = await client.completions.create({ model, prompt: "Once upon a time", max_tokens: 3 });
check(completion.choices[0].text.trim().length > 0, "empty completion");

try {
  await client.chat.completions.create({ model: "no-such-model", messages: [{ role: "user", content: "x" }] });
  check(false, "an unknown model was accepted");
} catch (error) {
  check(error instanceof OpenAI.NotFoundError && error.code === "model_not_found",
    `expected 404 model_not_found for an unknown model, got ${error.status} ${error.code}`);
}
console.log("openai-node check: all 4 checks passed");
