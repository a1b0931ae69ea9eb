/**
 * The soak run behind {@code scripts/soak}: a real frontend over the simulated fleet, loaded open-loop at a share
 * of its measured capacity with random cancellations, checked for one terminal outcome per request.
 *
 * <pre>
 * SoakRun (pacing thread) --send--> SoakClient (virtual thread per request) --HTTP--> Frontend --> ModelRouter
 *                                                                     SoakObserver <--scheduler callbacks--+
 * </pre>
 */
package dev.sluice.perf.soak;
