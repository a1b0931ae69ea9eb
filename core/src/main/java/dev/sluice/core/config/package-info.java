/**
 * The router-policy configuration: Dynamo's YAML ({@code --router-policy-config} / {@code DYN_ROUTER_POLICY_CONFIG})
 * parsed key for key into immutable records, validated once at startup. A {@link dev.sluice.core.config.PolicyProfile}
 * is what one model router queues by: its cache buckets, policy families and classes in DRR ring order.
 *
 * <pre>
 *   file ──RouterPolicyLoader──▶ YamlTreeReader (Jackson YAMLParser: positions, no duplicates, no aliases)
 *                                   │ YamlNode tree
 *                                   ▼
 *            ProfileReader / PolicyClassReader / PluginSectionReader / WorkerSelectionReader
 *                                   │ first violation ──▶ ConfigException(source:line:column: key path: detail)
 *                                   ▼
 *                            RouterPolicyConfig ──ProfileDescriber──▶ text for "sluice config check"
 * </pre>
 */
package dev.sluice.core.config;
