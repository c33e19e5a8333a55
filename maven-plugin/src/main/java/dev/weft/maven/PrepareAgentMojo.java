package dev.weft.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Puts the Weft agent on the test JVM: appends {@code -javaagent:weft-agent.jar=out=…} to the
 * property Surefire and Failsafe read their {@code argLine} from (keeping what is there), so that
 * the test run is recorded into {@code target/weft-traces/}, one trace per test JVM. The traces of
 * an earlier run there are removed first (the agent records only into an empty directory).
 */
@Mojo(name = "prepare-agent", defaultPhase = LifecyclePhase.INITIALIZE, threadSafe = true)
public final class PrepareAgentMojo extends AbstractMojo {
  /** The agent's artifact, a dependency of this plugin. */
  static final String AGENT = "dev.weft:weft-agent";

  /**
   * Weft's own libraries, which {@code @WeftBudget} runs inside the test JVM: never instrumented,
   * so that analysing the trace does not record into it.
   */
  static final List<String> OWN_CLASSES =
      List.of("dev.weft.check.*", "dev.weft.analysis.*", "dev.weft.trace.*", "dev.weft.junit.*");

  @Parameter(defaultValue = "${project}", readonly = true, required = true)
  MavenProject project;

  @Parameter(property = "plugin.artifactMap", readonly = true, required = true)
  Map<String, Artifact> pluginArtifactMap;

  /** The project property the agent option is appended to. */
  @Parameter(property = "weft.propertyName", defaultValue = "argLine")
  String propertyName;

  /**
   * Where traces go: one directory per test JVM ({@code ${surefire.forkNumber}} tells forks apart).
   */
  @Parameter(
      property = "weft.traces",
      defaultValue = "${project.build.directory}/weft-traces",
      required = true)
  File traces;

  /**
   * Only these classes are instrumented (agent option {@code include}), e.g. {@code com.acme.*}.
   */
  @Parameter(property = "weft.include")
  List<String> includes;

  /** These classes are never instrumented (agent option {@code exclude}). */
  @Parameter(property = "weft.exclude")
  List<String> excludes;

  /** The construct families to instrument (agent option {@code constructs}), e.g. {@code -spin}. */
  @Parameter(property = "weft.constructs")
  List<String> constructs;

  /** Skips this goal: the tests run without the agent. */
  @Parameter(property = "weft.skip", defaultValue = "false")
  boolean skip;

  @Override
  public void execute() throws MojoExecutionException {
    if (skip) {
      getLog().info("Skipping the Weft agent (weft.skip)");
      return;
    }
    Artifact agent = pluginArtifactMap.get(AGENT);
    if (agent == null || agent.getFile() == null) {
      throw new MojoExecutionException("the Weft agent (" + AGENT + ") was not resolved");
    }
    clear(traces.toPath());
    String option = agentOption(agent.getFile(), traces, includes, excludes, constructs);
    Properties props = project.getProperties();
    String old = props.getProperty(propertyName);
    String value = old == null || old.isBlank() ? option : old + " " + option;
    props.setProperty(propertyName, value);
    getLog().info(propertyName + " set to " + value);
  }

  /**
   * {@code -javaagent:JAR=out=DIR/${surefire.forkNumber},include=…}, quoted when it has a space
   * (Surefire splits the argLine at spaces outside quotes).
   */
  static String agentOption(
      File jar,
      File traces,
      List<String> includes,
      List<String> excludes,
      List<String> constructs) {
    StringBuilder args = new StringBuilder();
    args.append("out=").append(new File(traces, "${surefire.forkNumber}").getAbsolutePath());
    list(args, "include", includes);
    List<String> excluded = new ArrayList<>(OWN_CLASSES);
    if (excludes != null) {
      excluded.addAll(excludes);
    }
    list(args, "exclude", excluded);
    list(args, "constructs", constructs);
    String option = "-javaagent:" + jar.getAbsolutePath() + "=" + args;
    return option.indexOf(' ') >= 0 ? '"' + option + '"' : option;
  }

  private static void list(StringBuilder args, String name, List<String> values) {
    List<String> items = new ArrayList<>();
    if (values != null) {
      for (String v : values) {
        for (String item : v.split(",")) {
          if (!item.isBlank()) {
            items.add(item.strip());
          }
        }
      }
    }
    if (!items.isEmpty()) {
      args.append(',').append(name).append('=').append(String.join(",", items));
    }
  }

  /** Removes the traces of an earlier run. */
  private static void clear(Path dir) throws MojoExecutionException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new MojoExecutionException("cannot remove the old traces in " + dir + ": " + e, e);
    }
  }
}
