/**
 * sluice's built-in plugins: the {@code thunderagent}, {@code queue-budget} and {@code token-rate-limit}
 * classifiers and ThunderAgent's worker selector, registered by one catalog that {@link java.util.ServiceLoader}
 * finds. Written against core's {@code api} and {@code spi} only.
 */
module dev.sluice.plugins {
    requires dev.sluice.core;
    requires org.slf4j;

    // Jackson (through core's parameter binding) reads each plugin's YAML parameters into its records.
    opens dev.sluice.plugins.queuebudget to com.fasterxml.jackson.databind;
    opens dev.sluice.plugins.ratelimit to com.fasterxml.jackson.databind;
    opens dev.sluice.plugins.thunderagent to com.fasterxml.jackson.databind;

    provides dev.sluice.core.spi.RouterPluginCatalog with dev.sluice.plugins.BuiltinCatalog;
}
