package dev.sluice.transport.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The HTTP demo's traffic, fixed in advance from a seed (open loop: nothing waits for an answer): Poisson chat
 * requests that share a few long system prompts (one in eight also pastes a long document), agent sessions whose
 * growing conversations send turns every few seconds (a quarter of them before the previous answer is in), an
 * overload burst, and streaming clients that disconnect mid-stream. Words are tokens for the frontend's tokenizer,
 * so prompt sizes are in tokens. Stateless.
 */
final class HttpWorkload {
    /** Most calls a run sends, whatever the duration: keeps memory and connections bounded. */
    static final int MAX_CALLS = 50_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpWorkload() {
    }

    /** The calls, by send time; at most {@link #MAX_CALLS}. */
    static List<Call> generate(WorkloadShape shape, String model) {
        SplittableRandom random = new SplittableRandom(shape.seed());
        String[] systemPrompts = new String[WorkloadShape.SYSTEM_PROMPT_TOKENS.length];
        for (int i = 0; i < systemPrompts.length; i++) {
            systemPrompts[i] = words(random, WorkloadShape.SYSTEM_PROMPT_TOKENS[i], "policy" + i);
        }
        List<Call> calls = new ArrayList<>();
        chat(shape, model, random, systemPrompts, calls);
        agents(shape, model, random, calls);
        calls.sort(Comparator.comparingLong(Call::atNs));
        return calls.size() > MAX_CALLS ? List.copyOf(calls.subList(0, MAX_CALLS)) : calls;
    }

    private static void chat(WorkloadShape shape, String model, SplittableRandom random, String[] systemPrompts,
                             List<Call> calls) {
        long t = 0;
        for (int n = 0; calls.size() < MAX_CALLS; n++) {
            boolean burst = t >= shape.burstStartNs() && t < shape.burstEndNs();
            double rate = shape.chatPerSecond() * (burst ? shape.burstFactor() : 1.0);
            t += (long) (-Math.log(1.0 - random.nextDouble()) / rate * 1e9);
            if (t >= shape.durationNs()) {
                return;
            }
            ObjectNode body = request(model, 32 + random.nextInt(224));
            ArrayNode messages = body.putArray("messages");
            messages.addObject().put("role", "system").put("content", systemPrompts[random.nextInt(3)]);
            // One in eight pastes a document: over 1024 uncached tokens, the long cache bucket.
            int question = random.nextInt(8) == 0 ? 1100 + random.nextInt(1400) : 20 + random.nextInt(400);
            messages.addObject().put("role", "user").put("content", words(random, question, "q"));
            boolean stream = random.nextDouble() < 0.6;
            int leaveAfter = stream && random.nextDouble() < shape.leaveFraction() ? 3 + random.nextInt(20) : 0;
            calls.add(Call.of(t, "chat-" + n, null, null, body, stream, leaveAfter));
        }
    }

    private static void agents(WorkloadShape shape, String model, SplittableRandom random, List<Call> calls) {
        String agentPrompt = words(new SplittableRandom(7), WorkloadShape.AGENT_PROMPT_TOKENS, "tool");
        for (int s = 0; s < shape.sessions(); s++) {
            String session = "agent-" + s;
            long at = (long) (random.nextDouble() * 3e9);
            ObjectNode conversation = JSON.createObjectNode();
            ArrayNode messages = conversation.putArray("messages");
            messages.addObject().put("role", "system").put("content", agentPrompt);
            for (int turn = 0; at < shape.durationNs() && calls.size() < MAX_CALLS; turn++) {
                messages.addObject().put("role", "user").put("content", words(random, 80 + random.nextInt(220),
                    "s" + s + "t" + turn));
                ObjectNode body = request(model, 64 + random.nextInt(64));
                body.set("messages", messages.deepCopy());
                calls.add(Call.of(at, session + "-turn-" + turn, "agent", session, body, true, 0));
                // The answer the client will have seen: the next turn's prompt extends this one (a prefix hit).
                messages.addObject().put("role", "assistant").put("content", words(random, 60, "s" + s + "a"));
                // Tool calls take 0.5-4 s; a quarter of the time the client sends the next turn early.
                at += random.nextDouble() < 0.25 ? 200_000_000L : 500_000_000L + (long) (random.nextDouble() * 3.5e9);
            }
        }
    }

    private static ObjectNode request(String model, int maxTokens) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", model).put("max_tokens", maxTokens);
        return body;
    }

    /**
     * {@code count} pseudo-words, distinct per {@code salt}: each is one token for the word tokenizer as long as
     * {@code salt} is letters and digits only (punctuation would be tokens of its own).
     */
    private static String words(SplittableRandom random, int count, String salt) {
        StringBuilder text = new StringBuilder(count * 8);
        for (int i = 0; i < count; i++) {
            text.append(i == 0 ? "" : " ").append(salt).append('w').append(random.nextInt(50_000));
        }
        return text.toString();
    }
}
