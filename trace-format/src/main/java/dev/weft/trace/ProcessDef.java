package dev.weft.trace;

/** Facts about the traced JVM. */
public record ProcessDef(
    long pid,
    String host,
    String jdkVersion,
    String vmName,
    int cores,
    String commandLine,
    String mainClass,
    String agentOptions) {}
