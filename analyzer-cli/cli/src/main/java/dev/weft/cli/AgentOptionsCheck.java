package dev.weft.cli;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Map;

/**
 * Checks agent options with the agent's own parser, read from the agent jar that will be used,
 * before a program is started: a mistyped option is then an error of weft's, not a program that
 * runs unrecorded. The jar is read in a loader of its own, so the check always agrees with the
 * agent.
 */
final class AgentOptionsCheck {
  /** The agent's option parser: {@code parse(String args, Map properties, Map env)}. */
  static final String PARSER = "dev.weft.agent.config.AgentOptions";

  private AgentOptionsCheck() {}

  /**
   * @throws BadInputException with the agent's one-line message when it refuses {@code options}, or
   *     when {@code agentJar} is not a Weft agent
   */
  static void check(Path agentJar, String options) {
    try (URLClassLoader loader =
        new URLClassLoader(
            new URL[] {agentJar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      Class<?> parser;
      try {
        parser = Class.forName(PARSER, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        throw new BadInputException(agentJar + ": not a Weft agent jar (no " + PARSER + ")", e);
      }
      Method parse = parser.getMethod("parse", String.class, Map.class, Map.class);
      try {
        parse.invoke(null, options, Map.of(), Map.of());
      } catch (InvocationTargetException e) {
        Throwable refused = e.getCause();
        throw new BadInputException("agent option: " + refused.getMessage(), refused);
      }
    } catch (IOException e) {
      throw new BadInputException(agentJar + ": " + ErrorReporting.describe(e), e);
    } catch (ReflectiveOperationException e) {
      throw new BadInputException(agentJar + ": not a Weft agent jar of this version: " + e, e);
    }
  }
}
