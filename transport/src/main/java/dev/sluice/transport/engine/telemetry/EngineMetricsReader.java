package dev.sluice.transport.engine.telemetry;

import dev.sluice.transport.metrics.ScrapeFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the served model's load from an engine's exposition, in vLLM's names or SGLang's (the first that has the
 * model's running and waiting requests wins):
 *
 * <table>
 *   <caption>metric names</caption>
 *   <tr><th></th><th>vLLM</th><th>SGLang</th></tr>
 *   <tr><td>running</td><td>{@code vllm:num_requests_running}</td><td>{@code sglang:num_running_reqs}</td></tr>
 *   <tr><td>waiting</td><td>{@code vllm:num_requests_waiting}</td><td>{@code sglang:num_queue_reqs}</td></tr>
 *   <tr><td>KV usage</td><td>{@code vllm:kv_cache_usage_perc} (older {@code vllm:gpu_cache_usage_perc})</td>
 *       <td>{@code sglang:token_usage}</td></tr>
 *   <tr><td>KV size</td><td>{@code vllm:cache_config_info} labels {@code num_gpu_blocks}, {@code block_size}</td>
 *       <td>{@code sglang:max_total_num_tokens}</td></tr>
 *   <tr><td>rank</td><td>label {@code engine}</td><td>label {@code dp_rank} (only {@code tp_rank} and
 *       {@code pp_rank} 0, the others repeat it)</td></tr>
 * </table>
 *
 * <p>Series are the model's when their {@code model_name} label is the served model or absent ({@code
 * cache_config_info} has none). A series whose value or rank cannot be used is skipped with a note. Stateless.
 */
public final class EngineMetricsReader {
    private static final Dialect VLLM = new Dialect("vllm", "vllm:num_requests_running",
        "vllm:num_requests_waiting", List.of("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"), "engine");
    private static final Dialect SGLANG = new Dialect("sglang", "sglang:num_running_reqs", "sglang:num_queue_reqs",
        List.of("sglang:token_usage"), "dp_rank");
    private static final String VLLM_CACHE_INFO = "vllm:cache_config_info";
    private static final String SGLANG_MAX_TOKENS = "sglang:max_total_num_tokens";
    /** The engine's rank number in a map of ranks: the series had no rank label, so it holds for every rank. */
    private static final int EVERY_RANK = -1;

    private record Dialect(String name, String running, String waiting, List<String> usage, String rankLabel) {
    }

    private EngineMetricsReader() {
    }

    /**
     * The model's load, per engine rank.
     *
     * @param notes collects a message for every series skipped (a bad rank label, a value that is not a count).
     * @throws ScrapeException {@link ScrapeFailure#NO_LOAD} when neither dialect has both the running and the
     *                         waiting requests of the model; the message names the models the exposition has.
     */
    public static EngineSample read(Exposition exposition, String model, List<String> notes) throws ScrapeException {
        for (Dialect dialect : List.of(VLLM, SGLANG)) {
            Map<Integer, Double> running = perRank(exposition, dialect.running, dialect, model, notes);
            Map<Integer, Double> waiting = perRank(exposition, dialect.waiting, dialect, model, notes);
            running.keySet().retainAll(waiting.keySet());
            if (!running.isEmpty()) {
                return sample(exposition, dialect, model, running, waiting, notes);
            }
        }
        TreeSet<String> models = new TreeSet<>();
        for (Exposition.Sample sample : exposition.samples()) {
            if (sample.name().equals(VLLM.running) || sample.name().equals(SGLANG.running)) {
                String named = sample.label("model_name");
                models.add(named == null ? "(none)" : named);
            }
        }
        throw new ScrapeException(ScrapeFailure.NO_LOAD, "no " + VLLM.running + " and " + VLLM.waiting + " (nor "
            + SGLANG.running + " and " + SGLANG.waiting + ") for model '" + model + "'"
            + (models.isEmpty() ? "" : "; the engine reports model_name " + models));
    }

    private static EngineSample sample(Exposition exposition, Dialect dialect, String model,
                                       Map<Integer, Double> running, Map<Integer, Double> waiting,
                                       List<String> notes) {
        Map<Integer, Double> usage = Map.of();
        for (String name : dialect.usage) {
            usage = perRank(exposition, name, dialect, model, notes);
            if (!usage.isEmpty()) {
                break;
            }
        }
        Map<Integer, long[]> capacity = dialect == VLLM ? vllmCapacity(exposition, notes)
            : sglangCapacity(exposition, model, notes);
        List<EngineSample.Rank> ranks = new ArrayList<>(running.size());
        for (Map.Entry<Integer, Double> entry : running.entrySet()) {
            int rank = entry.getKey();
            Double used = usage.getOrDefault(rank, usage.get(EVERY_RANK));
            long[] size = capacity.getOrDefault(rank, capacity.get(EVERY_RANK));
            ranks.add(new EngineSample.Rank(rank, count(entry.getValue()), count(waiting.get(rank)),
                used == null ? Double.NaN : Math.clamp(used, 0.0, 1.0), size == null ? -1 : size[0],
                size == null ? 0 : (int) size[1]));
        }
        return new EngineSample(dialect.name, ranks);
    }

    /** A gauge's values by rank for the model, skipping series that are not the model's or not a finite value. */
    private static Map<Integer, Double> perRank(Exposition exposition, String name, Dialect dialect, String model,
                                                List<String> notes) {
        Map<Integer, Double> values = new TreeMap<>();
        for (Exposition.Sample sample : exposition.named(name)) {
            String named = sample.label("model_name");
            if ((named != null && !named.equals(model)) || !firstRankOfTheRest(sample)) {
                continue;
            }
            Integer rank = rank(sample, dialect.rankLabel, notes);
            if (rank == null) {
                continue;
            }
            if (!Double.isFinite(sample.value()) || sample.value() < 0) {
                notes.add(name + rank(rank) + " is " + sample.value() + ", not a count or fraction: skipped");
                continue;
            }
            values.put(rank, sample.value());
        }
        return values;
    }

    /** SGLang repeats a scheduler's figures per tensor- and pipeline-parallel rank: only rank 0 of those counts. */
    private static boolean firstRankOfTheRest(Exposition.Sample sample) {
        String tp = sample.label("tp_rank");
        String pp = sample.label("pp_rank");
        return (tp == null || tp.equals("0")) && (pp == null || pp.equals("0"));
    }

    /** The series' rank: {@link #EVERY_RANK} without the label (or with it empty), {@code null} if unreadable. */
    private static Integer rank(Exposition.Sample sample, String label, List<String> notes) {
        String value = sample.label(label);
        if (value == null || value.isEmpty()) {
            return sample.name().equals(VLLM_CACHE_INFO) ? EVERY_RANK : 0;
        }
        try {
            int rank = Integer.parseInt(value);
            if (rank >= 0) {
                return rank;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        notes.add(sample.name() + " has " + label + "=\"" + value + "\", not a rank number: skipped");
        return null;
    }

    /** vLLM's cache info by rank: {num_gpu_blocks × block_size, block_size}; no entry when it says none. */
    private static Map<Integer, long[]> vllmCapacity(Exposition exposition, List<String> notes) {
        Map<Integer, long[]> capacity = new TreeMap<>();
        for (Exposition.Sample sample : exposition.named(VLLM_CACHE_INFO)) {
            Integer rank = rank(sample, VLLM.rankLabel, notes);
            String blocks = sample.label("num_gpu_blocks");
            String blockSize = sample.label("block_size");
            if (rank == null || blocks == null || blockSize == null || blocks.equals("None")) {
                continue;
            }
            try {
                long gpuBlocks = Long.parseLong(blocks);
                int size = Integer.parseInt(blockSize);
                if (gpuBlocks > 0 && size > 0) {
                    capacity.put(rank, new long[] {Math.multiplyExact(gpuBlocks, size), size});
                    continue;
                }
            } catch (NumberFormatException | ArithmeticException e) {
                // Reported below.
            }
            notes.add(VLLM_CACHE_INFO + rank(rank) + " has num_gpu_blocks=\"" + blocks + "\" and block_size=\""
                + blockSize + "\", not positive integers: skipped");
        }
        return capacity;
    }

    /** SGLang's KV pool size in tokens by rank ({@code sglang:max_total_num_tokens}), as {tokens, 0}. */
    private static Map<Integer, long[]> sglangCapacity(Exposition exposition, String model, List<String> notes) {
        Map<Integer, long[]> capacity = new TreeMap<>();
        perRank(exposition, SGLANG_MAX_TOKENS, SGLANG, model, notes).forEach((rank, tokens) -> {
            if (tokens >= 1) {
                capacity.put(rank, new long[] {(long) Math.min(tokens, Long.MAX_VALUE), 0});
            }
        });
        return capacity;
    }

    private static int count(double value) {
        return (int) Math.min(Math.round(value), Integer.MAX_VALUE);
    }

    private static String rank(int rank) {
        return rank == EVERY_RANK ? "" : " of rank " + rank;
    }
}
