/**
 * The {@code queue-budget} classifier: a router-queue wait budget measured from ingress, the example of the plugin
 * guide made into a built-in.
 */
package dev.sluice.plugins.queuebudget;
