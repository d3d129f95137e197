/**
 * Weaving: the class file transformer, the scan of class bytes for {@code dev/weir/}, the two ASM
 * passes and the prologue, the reading of annotations, config patterns and their matching, the
 * servlet gate's weaving, retransformation at attach and reload, and {@code Weaving}, the handle
 * the operations tier holds.
 *
 * <p>Agent tier. May import: {@code control}, {@code backend}, {@code config}, the boot tier, the
 * {@code dev.weir} API, the relocated Byte Buddy (its ASM) and the JDK. See ARCHITECTURE.md, "A
 * woven call".
 */
package dev.weir.agent.weave;
