package dev.sluice.transport.tokenize.hf;

/**
 * Puts DJL offline before any of its classes runs. Offline, DJL takes its native tokenizers library from its jar
 * (the CPU build, which the jar ships for Linux, macOS and Windows) and never from the network, and its usage
 * report (a call to the cloud's instance-metadata address, then to its telemetry) is skipped; the opt-out says the
 * same for releases that read only it. Settings already given (a {@code -D} flag) are left as they are.
 */
final class DjlOffline {
    private DjlOffline() {
    }

    static void apply() {
        setIfAbsent("ai.djl.offline", "true");
        setIfAbsent("OPT_OUT_TRACKING", "true");
        // DJL probes for CUDA to pick a GPU build of the library; offline it takes the CPU build whatever it finds,
        // so the probe's warnings (a CUDA runtime without a driver, say) would only mislead.
        setIfAbsent("org.slf4j.simpleLogger.log.ai.djl.util.cuda", "error");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
