/**
 * Cluster-scoped tenant budgets over NATS: {@link dev.sluice.transport.budget.NatsBudgets}, the host's
 * {@link dev.sluice.core.api.SharedBudgets} on a JetStream key-value bucket, one key per tenant's limit, each claim a
 * compare-and-set on the key's revision ({@link dev.sluice.transport.budget.BudgetKeys} makes the keys NATS-safe).
 */
package dev.sluice.transport.budget;
