package dev.sluice.core.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a policy class's {@code tenant_fairness} ({@code none} or {@code vtc}) and its {@code vtc} section:
 * {@code prompt_weight}, {@code cached_weight}, {@code output_weight}, {@code max_tenants}, {@code tenant_weights},
 * {@code preempt_over_served}.
 * Every error names the key and where it was written. Stateless.
 */
final class TenantFairnessReader {
    static final List<String> VTC_KEYS = List.of("prompt_weight", "cached_weight", "output_weight", "max_tenants",
        "tenant_weights", "preempt_over_served");

    private TenantFairnessReader() {
    }

    /** The class's fairness from its {@code tenant_fairness} and {@code vtc} values (either may be null). */
    static TenantFairness read(YamlValue mode, YamlValue vtc) throws ConfigException {
        String text = mode == null ? "none" : mode.string();
        switch (text) {
            case "none" -> {
                if (vtc != null) {
                    throw vtc.error("vtc settings need tenant_fairness: vtc");
                }
                return TenantFairness.NONE;
            }
            case "vtc" -> {
                return vtc == null ? TenantFairness.vtc() : settings(vtc.map().allowOnly(VTC_KEYS));
            }
            default -> throw mode.error("tenant_fairness must be none or vtc, found " + KeyPath.quote(text));
        }
    }

    private static TenantFairness settings(YamlMap map) throws ConfigException {
        double prompt = weight(map, "prompt_weight", TenantFairness.DEFAULT_PROMPT_WEIGHT);
        double cached = weight(map, "cached_weight", TenantFairness.DEFAULT_CACHED_WEIGHT);
        double output = weight(map, "output_weight", TenantFairness.DEFAULT_OUTPUT_WEIGHT);
        int maxTenants = TenantFairness.DEFAULT_MAX_TENANTS;
        YamlValue max = map.get("max_tenants");
        if (max != null) {
            long value = max.nonNegativeLong();
            if (value < 1 || value > 1_000_000) {
                throw max.error("max_tenants must be between 1 and 1000000, was " + value);
            }
            maxTenants = (int) value;
        }
        Map<String, Double> weights = new LinkedHashMap<>();
        YamlValue tenants = map.get("tenant_weights");
        if (tenants != null) {
            YamlMap byTenant = tenants.map();
            List<String> keys = byTenant.keys();
            List<YamlValue> values = byTenant.values();
            for (int i = 0; i < keys.size(); i++) {
                double w = values.get(i).number();
                if (!Double.isFinite(w) || w <= 0) {
                    throw values.get(i).error("tenant weight must be finite and greater than zero, was " + w);
                }
                weights.put(keys.get(i), w);
            }
        }
        YamlValue preempt = map.get("preempt_over_served");
        return new TenantFairness(TenantFairness.Mode.VTC, prompt, cached, output, maxTenants, weights,
            preempt != null && preempt.bool());
    }

    private static double weight(YamlMap map, String key, double fallback) throws ConfigException {
        YamlValue value = map.get(key);
        if (value == null) {
            return fallback;
        }
        double w = value.number();
        if (!Double.isFinite(w) || w < 0) {
            throw value.error(key + " must be finite and non-negative, was " + w);
        }
        return w;
    }
}
