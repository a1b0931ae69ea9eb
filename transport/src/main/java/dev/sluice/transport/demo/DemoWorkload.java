package dev.sluice.transport.demo;

import dev.sluice.core.api.SessionContext;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.transport.simulation.Arrival;
import dev.sluice.transport.simulation.WorkloadRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The in-process demo's traffic, fixed in advance from a seed (open loop: nothing waits for an answer): Poisson chat
 * requests on three shared system prompts (one in eight pastes a long document), agent sessions whose turns
 * sometimes overlap (a client that does not wait for the previous answer), a burst that overloads the fleet, and
 * clients that give up early. An agent's prompt is its conversation so far plus the turn's new text; one turn in
 * five brings a long tool result (more than 1,024 new tokens: a long cache bucket), and a conversation past
 * {@value #AGENT_CONTEXT_LIMIT} tokens starts over from the system prompt, as an agent compacting its context does.
 * Stateless.
 */
final class DemoWorkload {
    private static final int AGENT_CONTEXT_LIMIT = 6000;

    private DemoWorkload() {
    }

    /** The arrivals, by time; prompts hashed in blocks of {@code hasher}'s size. */
    static List<Arrival> generate(WorkloadShape shape, BlockHasher hasher) {
        SplittableRandom random = new SplittableRandom(shape.seed());
        // Prompt text from a generator of its own: the arrivals are those of the same seed whatever the prompts.
        WorkloadRandom text = new WorkloadRandom(shape.seed());
        List<Arrival> arrivals = new ArrayList<>();
        chat(shape, hasher, random, text, arrivals);
        agents(shape, hasher, random, text, arrivals);
        arrivals.sort(Comparator.comparingLong(Arrival::atNs));
        return arrivals;
    }

    private static void chat(WorkloadShape shape, BlockHasher hasher, SplittableRandom random, WorkloadRandom text,
                             List<Arrival> arrivals) {
        int[][] systemPrompts = new int[WorkloadShape.SYSTEM_PROMPT_TOKENS.length][];
        for (int i = 0; i < systemPrompts.length; i++) {
            systemPrompts[i] = text.tokens(WorkloadShape.SYSTEM_PROMPT_TOKENS[i]);
        }
        long t = 0;
        for (int n = 0; ; n++) {
            double rate = shape.chatPerSecond() * (t >= shape.burstStartNs() && t < shape.burstEndNs()
                ? shape.burstFactor() : 1.0);
            t += (long) (-Math.log(1.0 - random.nextDouble()) / rate * 1e9);
            if (t >= shape.durationNs()) {
                return;
            }
            int[] system = systemPrompts[random.nextInt(systemPrompts.length)];
            int[] prompt = append(system, text.tokens(random.nextInt(8) == 0 ? 1100 + random.nextInt(1400)
                : 20 + random.nextInt(400)));
            AdmissionRequest request = AdmissionRequest.builder("chat-" + n).promptTokens(prompt, hasher).build();
            long leaves = random.nextDouble() < shape.leaveFraction() ? 1_000_000_000L : 0;
            arrivals.add(new Arrival(t, request, prompt, 16 + random.nextInt(112), leaves));
        }
    }

    private static void agents(WorkloadShape shape, BlockHasher hasher, SplittableRandom random, WorkloadRandom text,
                               List<Arrival> arrivals) {
        int[] system = text.tokens(WorkloadShape.AGENT_PROMPT_TOKENS);
        for (int s = 0; s < shape.sessions(); s++) {
            SessionContext session = SessionContext.of("agent-" + s);
            int[] conversation = system;
            long at = (long) (random.nextDouble() * 2e9);
            for (int turn = 0; at < shape.durationNs(); turn++) {
                int[] added = text.tokens(random.nextInt(5) == 0 ? 1100 + random.nextInt(500)
                    : 100 + random.nextInt(300));
                if (conversation.length + added.length > AGENT_CONTEXT_LIMIT) {
                    conversation = system;
                }
                conversation = append(conversation, added);
                AdmissionRequest request = AdmissionRequest.builder("agent-" + s + "-turn-" + turn)
                    .promptTokens(conversation, hasher).sessionContext(session).policyClass("agent").build();
                arrivals.add(new Arrival(at, request, conversation, 64 + random.nextInt(64), 0));
                // Tool calls take 0.5-4 s; a quarter of the time the client sends the next turn early.
                at += random.nextDouble() < 0.25 ? 200_000_000L : 500_000_000L + (long) (random.nextDouble() * 3.5e9);
            }
        }
    }

    private static int[] append(int[] prefix, int[] more) {
        int[] all = Arrays.copyOf(prefix, prefix.length + more.length);
        System.arraycopy(more, 0, all, prefix.length, more.length);
        return all;
    }
}
