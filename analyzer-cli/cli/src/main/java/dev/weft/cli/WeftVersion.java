package dev.weft.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code weft --version}: the build's version (from the jar manifest) and the JVM it runs on. */
final class WeftVersion implements IVersionProvider {

  /** The weft version, or {@code dev} when not running from a built jar. */
  static String version() {
    String v = WeftCommand.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  @Override
  public String[] getVersion() {
    return new String[] {
      "weft " + version() + " (trace format " + dev.weft.trace.TraceFiles.VERSION_MAJOR + ".x)",
      "JVM: ${java.version} (${java.vendor} ${java.vm.name})"
    };
  }
}
