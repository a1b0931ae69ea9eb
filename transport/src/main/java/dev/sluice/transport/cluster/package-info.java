/**
 * Several {@code sluice serve} replicas in front of one set of engines, sharing what each router booked through NATS
 * ({@code --nats-url}): {@link dev.sluice.transport.cluster.ReplicaCluster} (the replica's
 * {@link dev.sluice.transport.cluster.ReplicaIdentity}, its {@link dev.sluice.transport.cluster.NatsLink}, the
 * directory of the other replicas with their leases), and per model a
 * {@link dev.sluice.transport.cluster.ModelSync}: the router's booking observer publishes this replica's bookings on
 * {@code sluice.bookings.<model>} in a numbered stream, and the other replicas' bookings are applied to the router on
 * its scheduler thread, so busy gating and placement see the whole fleet's load. A gap in a stream (NATS restarted, a
 * replica joined late) drops that sender's bookings and asks it to resync; a replica not heard from for a lease has
 * its bookings expire. KV events do not pass through here: each replica subscribes to the engines' ZMQ publishers
 * itself.
 *
 * <p>Depends on core's host and router API and jnats; the frontend and the command line use it.
 */
package dev.sluice.transport.cluster;
