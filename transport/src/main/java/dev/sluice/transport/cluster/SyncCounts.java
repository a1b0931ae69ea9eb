package dev.sluice.transport.cluster;

/**
 * One model's replica-sync counters at a moment. Immutable.
 *
 * @param published      booking messages this replica published.
 * @param publishFailed  messages that could not be published (receivers resync).
 * @param resyncsServed  resyncs this replica answered (a RESET and its live bookings).
 * @param received       other replicas' messages received.
 * @param unknownEngine  bookings on an engine this replica does not have (dropped).
 * @param resyncsAsked   resyncs this replica asked for (it missed messages).
 * @param malformed      messages that could not be read (dropped).
 */
record SyncCounts(long published, long publishFailed, long resyncsServed, long received, long unknownEngine,
                  long resyncsAsked, long malformed) {
}
