package dev.sluice.transport.engine.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Prometheus text format as engines write it, and lines that break it. */
class PrometheusParserTest {
    @Test
    void shouldReadEverySampleOfVllmsExpositionWithItsLabels() {
        Exposition exposition = PrometheusParser.parse(EngineExpositions.VLLM_V1_DP2);

        assertEquals(List.of(), exposition.errors());
        assertEquals(19, exposition.samples().size(), "every non-comment line");
        List<Exposition.Sample> running = exposition.named("vllm:num_requests_running");
        assertEquals(2, running.size());
        assertEquals(Map.of("engine", "1", "model_name", "meta-llama/Llama-3.1-8B-Instruct"), running.get(1).labels());
        assertEquals(1.0, running.get(1).value());
        Exposition.Sample info = exposition.named("vllm:cache_config_info").getFirst();
        assertEquals("27159", info.label("num_gpu_blocks"));
        assertEquals("16", info.label("block_size"));
        assertEquals("None", info.label("num_cpu_blocks"));
        assertEquals(15, info.labels().size(), "one label per CacheConfig field, and engine");
        assertEquals(7.1534436352e10, exposition.named("process_virtual_memory_bytes").getFirst().value());
        assertEquals("+Inf", exposition.named("vllm:time_to_first_token_seconds_bucket").get(1).label("le"));
    }

    @Test
    void shouldReadSglangsExpositionWithNaN() {
        Exposition exposition = PrometheusParser.parse(EngineExpositions.SGLANG_DP2_TP2);

        assertEquals(List.of(), exposition.errors());
        assertEquals(3, exposition.named("sglang:num_queue_reqs").size());
        assertTrue(Double.isNaN(exposition.named("sglang:cache_hit_rate").getFirst().value()));
        assertEquals(51200.0, exposition.named("sglang:max_total_num_tokens").get(1).value());
    }

    @Test
    void shouldUnescapeLabelValuesAndAcceptTheFormatsCorners() {
        String text = "# a comment that is neither HELP nor TYPE\r\n"
            + "\r\n"
            + "escaped{path=\"C:\\\\dir\\\\\",quote=\"say \\\"hi\\\"\",multi=\"a\\nb\"} 1\r\n"
            + "spaced { a = \"1\" , b=\"2\", } \t-2.5e-3   1700000000000\n"
            + "inf{sign=\"plus\"} +Inf\n"
            + "inf{sign=\"minus\"} -Inf\n"
            + "inf{sign=\"bare\"} Inf\n"
            + "nan NaN\n"
            + "exemplar_total 17 # {trace_id=\"abc\"} 1.0\n"
            + "no_labels 3";

        Exposition exposition = PrometheusParser.parse(text);

        assertEquals(List.of(), exposition.errors());
        Exposition.Sample escaped = exposition.named("escaped").getFirst();
        assertEquals("C:\\dir\\", escaped.label("path"));
        assertEquals("say \"hi\"", escaped.label("quote"));
        assertEquals("a\nb", escaped.label("multi"));
        Exposition.Sample spaced = exposition.named("spaced").getFirst();
        assertEquals(Map.of("a", "1", "b", "2"), spaced.labels());
        assertEquals(-0.0025, spaced.value());
        List<Exposition.Sample> inf = exposition.named("inf");
        assertEquals(List.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY),
            inf.stream().map(Exposition.Sample::value).toList());
        assertTrue(Double.isNaN(exposition.named("nan").getFirst().value()));
        assertEquals(17.0, exposition.named("exemplar_total").getFirst().value());
        assertEquals(3.0, exposition.named("no_labels").getFirst().value());
    }

    @Test
    void shouldReportEachMalformedLineByNumberAndReadTheOthers() {
        String text = String.join("\n",
            "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 3.0",
            "vllm:num_requests_waiting{engine=\"0\",model_name=\"m\" 4.0",
            "vllm:num_requests_waiting{engine=\"0\"} three",
            "{engine=\"0\"} 1.0",
            "vllm:odd{path=\"x\\q\"} 1",
            "vllm:stamped 1.0 yesterday",
            "vllm:twice{a=\"1\",a=\"2\"} 1",
            "vllm:javaish 1d",
            "vllm:lonely",
            "vllm:dashed-name 1",
            "vllm:unquoted{a=1} 1",
            "vllm:open{a=\"never closed} 1",
            "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"} 0.25");

        Exposition exposition = PrometheusParser.parse(text);

        assertEquals(List.of("vllm:num_requests_running", "vllm:kv_cache_usage_perc"),
            exposition.samples().stream().map(Exposition.Sample::name).toList(), "the good lines, in order");
        List<String> errors = exposition.errors();
        assertEquals(11, errors.size(), errors::toString);
        assertEquals("line 2: expected ',' or '}' at column 53: vllm:num_requests_waiting{engine=\"0\",model_name="
            + "\"m\" 4.0", errors.get(0));
        assertEquals("line 3: 'three' is not a number: vllm:num_requests_waiting{engine=\"0\"} three", errors.get(1));
        assertTrue(errors.get(2).startsWith("line 4: expected a metric name"), errors.get(2));
        assertTrue(errors.get(3).startsWith("line 5: unknown escape '\\q' in a label value"), errors.get(3));
        assertTrue(errors.get(4).startsWith("line 6: unexpected text after the value"), errors.get(4));
        assertTrue(errors.get(5).startsWith("line 7: label 'a' is given twice"), errors.get(5));
        assertTrue(errors.get(6).startsWith("line 8: '1d' is not a number"), errors.get(6));
        assertTrue(errors.get(7).startsWith("line 9: no value"), errors.get(7));
        assertTrue(errors.get(8).startsWith("line 10: unexpected '-' after the metric name"), errors.get(8));
        assertTrue(errors.get(9).startsWith("line 11: expected '\"' at column 17"), errors.get(9));
        assertTrue(errors.get(10).startsWith("line 12: a label value is not closed"), errors.get(10));
    }

    @Test
    void shouldQuoteOnlyTheStartOfALongBadLine() {
        String error = PrometheusParser.parse("bad{" + "x".repeat(500)).errors().getFirst();

        assertTrue(error.endsWith("...") && error.length() < 140, error);
    }

    @Test
    void shouldReadValuesAsPrometheusDoesAndRefuseJavasExtras() {
        assertEquals(0.5, PrometheusParser.value(".5"));
        assertEquals(5.0, PrometheusParser.value("5."));
        assertEquals(1e-3, PrometheusParser.value("1E-3"));
        assertEquals(Double.NEGATIVE_INFINITY, PrometheusParser.value("-inf"));
        for (String bad : List.of("", ".", "1e", "0x1p3", "1f", "Infinit", "1_000", "--1")) {
            assertThrows(IllegalArgumentException.class, () -> PrometheusParser.value(bad), bad);
        }
    }
}
