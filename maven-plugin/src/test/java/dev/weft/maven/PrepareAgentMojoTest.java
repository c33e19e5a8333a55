package dev.weft.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrepareAgentMojoTest {
  private static final String OWN =
      "dev.weft.check.*,dev.weft.analysis.*,dev.weft.trace.*,dev.weft.junit.*";

  @Test
  void theAgentOptionNamesOneTraceDirectoryPerForkAndTheAgentsOwnOptions() {
    assertEquals(
        "-javaagent:/r/weft-agent.jar=out=/p/target/weft-traces/${surefire.forkNumber},"
            + "include=com.acme.*,org.shop.*,exclude="
            + OWN
            + ",com.acme.Gen,constructs=-spin,-waits",
        PrepareAgentMojo.agentOption(
            new File("/r/weft-agent.jar"),
            new File("/p/target/weft-traces"),
            List.of("com.acme.*", " org.shop.* "),
            List.of("com.acme.Gen"),
            List.of("-spin,-waits")));
    assertEquals(
        "-javaagent:/r/weft-agent.jar=out=/p/t/${surefire.forkNumber},exclude=" + OWN,
        PrepareAgentMojo.agentOption(
            new File("/r/weft-agent.jar"), new File("/p/t"), null, List.of(), null));
  }

  @Test
  void aPathWithASpaceIsQuotedForSurefire() {
    assertEquals(
        "\"-javaagent:/my repo/weft-agent.jar=out=/p/t/${surefire.forkNumber},exclude="
            + OWN
            + "\"",
        PrepareAgentMojo.agentOption(
            new File("/my repo/weft-agent.jar"), new File("/p/t"), null, null, null));
  }
}
