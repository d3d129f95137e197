/**
 * Weaving: the class file transformer ({@code WeirTransformer}), the scan of class bytes for {@code
 * dev/weir/}, the two ASM passes ({@code Weaver}) and the prologue ({@code LimitPrologue}), the
 * plan of each method's limit ({@code LimitWeaver}, from annotations read by {@code
 * AnnotationReader} and bound by {@code AnnotationBinder}, several on one method grouped by {@code
 * LimitGroups}, a config pattern's binding made by {@code ConfigBinding}, fallbacks found by {@code
 * FallbackResolver}), config patterns and their matching ({@code ConfigLimits}, {@code
 * TypeFamilies} for {@code Type+}), the servlet gate's weaving, retransformation at attach and
 * reload ({@code Retransformer}), and {@code Weaving}, the handle the operations tier holds.
 *
 * <p>Agent tier. May import: {@code control}, {@code backend}, {@code config}, the boot tier, the
 * {@code dev.weir} API, the relocated Byte Buddy (its ASM) and the JDK. See ARCHITECTURE.md, "A
 * woven call".
 */
package dev.weir.agent.weave;
