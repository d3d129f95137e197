/**
 * The command line, {@code java -jar weir-agent.jar list|status|top|set|reload|methods|attach}: a
 * program of its own that finds Weir's JVMs, attaches to them and talks to their MBeans ({@code
 * WeirMBeans}): {@code WeirCommand} reads the command line, one class runs each command ({@code
 * ListCommand}, {@code TopCommand}, ...), {@code Table} and {@code Row} lay out what they print.
 * See docs/operations.md, "The command line".
 *
 * <p>Apart from the stack: it imports no other Weir package (it talks to the agent over JMX only),
 * and nothing imports it. May print to {@code System.out} and {@code System.err}.
 */
package dev.weir.agent.cli;
