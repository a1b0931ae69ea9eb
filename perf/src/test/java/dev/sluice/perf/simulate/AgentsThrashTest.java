package dev.sluice.perf.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.transport.cli.SluiceMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code sluice simulate agents} in closed loop: the simulated vLLM v1 engine thrashes as vLLM does past the KV
 * knee (the sanity check of the experiment), read from the command's JSON output. A short sweep (three N, 8 minute
 * warm-up and window) keeps it cheap; the command's defaults run the full one.
 */
class AgentsThrashTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldThrashPastTheKneeUnderPassThrough() throws Exception {
        List<JsonNode> runs = run("--parallel-programs", "10,16,32", "--warmup", "8m", "--window", "8m",
            "--pass-through-only", "--format", "json");
        assertEquals(3, runs.size(), runs::toString);
        JsonNode low = runs.get(0);
        JsonNode knee = runs.get(1);
        JsonNode past = runs.get(2);
        for (JsonNode run : runs) {
            assertEquals("pass-through", run.get("policy").asText());
            assertTrue(run.get("balanced").asBoolean(), run::toString);
            assertTrue(run.get("r").asDouble() > 2 && run.get("r").asDouble() < 5, "the paper's regime: " + run);
        }
        assertTrue(knee.get("load_ratio").asDouble() > 0.6 && knee.get("load_ratio").asDouble() < 1.2, knee::toString);
        assertTrue(past.get("load_ratio").asDouble() >= 1.5, past::toString);
        double peak = knee.get("steps_per_min").asDouble();
        assertTrue(peak > low.get("steps_per_min").asDouble(), "throughput grows up to the knee: " + runs);
        assertTrue(peak >= 2 * past.get("steps_per_min").asDouble(), "and falls 2x past it: " + runs);
        assertTrue(low.get("prefix_hit_rate").asDouble() > 0.9, low::toString);
        assertTrue(past.get("prefix_hit_rate").asDouble() < 0.35, past::toString);
        assertTrue(past.get("reprefilled_tokens").asLong() > 10 * Math.max(1, low.get("reprefilled_tokens").asLong()),
            runs::toString);
        assertTrue(past.get("preemptions").asLong() > 0, past::toString);
        assertTrue(past.get("turn_latency_p50_ms").asDouble() > 3 * low.get("turn_latency_p50_ms").asDouble(),
            runs::toString);
    }

    @Test
    void shouldPrintOneJsonObjectPerPolicyAndN() throws Exception {
        List<JsonNode> runs = run("--parallel-programs", "4", "--warmup", "1m", "--window", "2m", "--format",
            "json");
        assertEquals(List.of("pass-through", "thunderagent", "thunderagent-paper", "thunderagent-fit"),
            runs.stream().map(r -> r.get("policy").asText()).toList());
        for (String field : List.of("parallel_programs", "steps_per_min", "programs_per_min", "output_tokens_per_s",
            "prefix_hit_rate", "prefilled_tokens", "reprefilled_tokens", "preemptions", "turn_latency_p50_ms",
            "turn_latency_p99_ms", "parked_p50_ms", "parked_p99_ms", "engine_ttft_p50_ms", "r")) {
            assertTrue(runs.get(1).has(field), field + " in " + runs.get(1));
        }
        assertTrue(runs.get(0).get("steps_per_min").asDouble() > 0, runs::toString);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--parallel-programs=0", "--scheduler=vllm", "--cost=gpu", "--format=xml",
        "--gpu-blocks=100", "--window=0s", "--workers=0"})
    void shouldRefuseABadOptionNamingIt(String option) {
        StringWriter err = new StringWriter();
        CommandLine cli = SluiceMain.commandLine();
        cli.setErr(new PrintWriter(err, true));
        assertEquals(2, cli.execute("simulate", "agents", option));
        String name = option.substring(0, option.indexOf('='));
        assertTrue(err.toString().contains(name), err::toString);
    }

    private static List<JsonNode> run(String... args) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        String[] all = new String[args.length + 2];
        all[0] = "simulate";
        all[1] = "agents";
        System.arraycopy(args, 0, all, 2, args.length);
        try {
            code = SluiceMain.commandLine().execute(all);
        } finally {
            System.setOut(original);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text);
        List<JsonNode> runs = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("{")) {
                runs.add(JSON.readTree(line));
            }
        }
        return runs;
    }
}
