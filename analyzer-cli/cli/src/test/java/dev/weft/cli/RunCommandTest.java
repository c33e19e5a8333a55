package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.config.AgentOptions;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {
  @TempDir Path tmp;
  Path agent;
  String classpath;

  /**
   * An agent jar whose premain is {@link StubAgent}, with the real agent's option parser (package
   * {@code dev.weft.agent.config}), which weft run checks the options with.
   */
  @BeforeEach
  void stubAgent() throws Exception {
    agent = tmp.resolve("stub-agent.jar");
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().putValue("Premain-Class", StubAgent.class.getName());
    try (OutputStream out = Files.newOutputStream(agent);
        JarOutputStream jar = new JarOutputStream(out, m);
        InputStream stub = StubAgent.class.getResourceAsStream("StubAgent.class")) {
      jar.putNextEntry(new JarEntry("dev/weft/cli/StubAgent.class"));
      stub.transferTo(jar);
      jar.closeEntry();
      Path config =
          Path.of(AgentOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      addPackage(jar, config, "dev/weft/agent/config/");
    }
    classpath =
        Path.of(ExitWith.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString();
  }

  /** Copies the classes of one package from a class directory or jar into {@code jar}. */
  private static void addPackage(JarOutputStream jar, Path location, String pkg) throws Exception {
    if (Files.isDirectory(location)) {
      try (var files = Files.list(location.resolve(pkg))) {
        for (Path f : (Iterable<Path>) files::iterator) {
          jar.putNextEntry(new JarEntry(pkg + f.getFileName()));
          Files.copy(f, jar);
          jar.closeEntry();
        }
      }
      return;
    }
    try (JarFile source = new JarFile(location.toFile())) {
      for (JarEntry e : (Iterable<JarEntry>) source.stream()::iterator) {
        if (e.getName().startsWith(pkg) && e.getName().endsWith(".class")) {
          jar.putNextEntry(new JarEntry(e.getName()));
          try (InputStream in = source.getInputStream(e)) {
            in.transferTo(jar);
          }
          jar.closeEntry();
        }
      }
    }
  }

  /** Runs weft with the program's stdout and stderr sent to files. */
  private Cli.Result run(String... args) {
    return run(Map.of(), args);
  }

  private Cli.Result run(Map<String, String> env, String... args) {
    return Cli.run(
        env,
        cl -> {
          RunCommand run = cl.getSubcommands().get("run").getCommand();
          run.programOut = ProcessBuilder.Redirect.to(tmp.resolve("program.out").toFile());
          run.programErr = ProcessBuilder.Redirect.to(tmp.resolve("program.err").toFile());
        },
        args);
  }

  private String programOut() throws Exception {
    return Files.readString(tmp.resolve("program.out"));
  }

  @Test
  void returnsTheProgramsExitCodeAndSaysWhereTheTraceIs() throws Exception {
    Path out = tmp.resolve("trace");
    Cli.Result r =
        run(
            "run",
            "--agent",
            agent.toString(),
            "--out",
            out.toString(),
            "--opt",
            "tasks=aggregate",
            "--opt",
            "buffer=1m",
            "--",
            "-cp",
            classpath,
            ExitWith.class.getName(),
            "3");
    assertEquals(3, r.exit(), r.toString());
    assertEquals("ExitWith 3" + System.lineSeparator(), programOut(), "the program's own output");
    assertEquals(
        List.of("weft: trace in " + out + "  (next: weft summary " + out + ")"), r.errLines());
    assertEquals(
        "out=" + out + ",tasks=aggregate,buffer=1m",
        Files.readString(out.resolve("agent-options.txt")));
    assertEquals(
        0,
        run(
                "run",
                "--agent",
                agent.toString(),
                "--out",
                tmp.resolve("t0").toString(),
                "--",
                "-cp",
                classpath,
                ExitWith.class.getName(),
                "0")
            .exit());
  }

  @Test
  void javaArgumentsStartAtTheProgramOrAfterDashDash() throws Exception {
    // A single-file source program needs no class path: the first argument that is not a weft
    // option starts java's arguments, including the options that follow it.
    Path source =
        Files.writeString(
            tmp.resolve("Hello.java"),
            "class Hello { public static void main(String[] a) { System.exit(a.length == 2 ? 7 :"
                + " 1); } }");
    Path out = tmp.resolve("t1");
    Cli.Result r =
        run(
            "run",
            "--agent",
            agent.toString(),
            "--out",
            out.toString(),
            source.toString(),
            "--out",
            "x");
    assertEquals(7, r.exit(), r.toString());
    assertTrue(Files.exists(out.resolve("agent-options.txt")));
    // An option weft does not know starts java's arguments, as after 'java': '-version' with or
    // without '--'.
    for (String dashDash : new String[] {"--", null}) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "run",
                  "--agent",
                  agent.toString(),
                  "--out",
                  tmp.resolve("t2" + (dashDash == null ? "b" : "a")).toString()));
      if (dashDash != null) {
        args.add(dashDash);
      }
      args.add("-version");
      r = run(args.toArray(new String[0]));
      assertEquals(0, r.exit(), r.toString());
      assertTrue(
          Files.readString(tmp.resolve("program.err")).contains(System.getProperty("java.version")),
          "java -version reports on stderr, passed through");
    }
  }

  @Test
  void javaLauncherFormsAreTakenAsTheyAreTypedAfterJava() throws Exception {
    // 'weft run -jar app.jar a b' and 'weft run -Xmx64m -cp DIR Main': what users type after java.
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    Path source =
        Files.writeString(
            tmp.resolve("Exit.java"),
            "public class Exit { public static void main(String[] a) {"
                + " System.exit(a.length == 2 ? 5 : 1); } }");
    javax.tools.ToolProvider.getSystemJavaCompiler()
        .run(null, null, null, "-d", classes.toString(), source.toString());
    Path jar = tmp.resolve("exit.jar");
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "Exit");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
      out.putNextEntry(new JarEntry("Exit.class"));
      out.write(Files.readAllBytes(classes.resolve("Exit.class")));
      out.closeEntry();
    }
    Path out1 = tmp.resolve("jar-trace");
    Cli.Result r =
        run(
            "run",
            "--agent",
            agent.toString(),
            "--out",
            out1.toString(),
            "-jar",
            jar + "",
            "a",
            "b");
    assertEquals(5, r.exit(), r.toString());
    assertTrue(Files.exists(out1.resolve("agent-options.txt")), r.toString());
    Path out2 = tmp.resolve("cp-trace");
    r =
        run(
            "run",
            "--agent",
            agent.toString(),
            "--out",
            out2.toString(),
            "-Xmx64m",
            "-cp",
            classes.toString(),
            "Exit",
            "a",
            "b");
    assertEquals(5, r.exit(), r.toString());
    assertTrue(Files.exists(out2.resolve("agent-options.txt")), r.toString());
  }

  @Test
  void missingAgentIsBadInput() {
    Map<String, String> env = Map.of("WEFT_HOME", tmp.resolve("nowhere").toString());
    Cli.Result r = run(env, "run", "--out", tmp.resolve("t").toString(), "--", "-version");
    BadInputTest.assertOneLineError(
        r, "cannot find weft-agent.jar (looked in: " + tmp.resolve("nowhere"));
    BadInputTest.assertOneLineError(
        run("run", "--agent", tmp.resolve("no.jar").toString(), "--", "-version"),
        "no.jar: no such file");
  }

  @Test
  void findsTheAgentThroughWeftHome() throws Exception {
    Path home = tmp.resolve("home");
    Files.createDirectories(home.resolve("agent/target"));
    Files.copy(agent, home.resolve("agent/target/weft-agent.jar"));
    Path out = tmp.resolve("t");
    Cli.Result r =
        run(
            Map.of("WEFT_HOME", home.toString()),
            "run",
            "--out",
            out.toString(),
            "--",
            "-cp",
            classpath,
            ExitWith.class.getName(),
            "0");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(Files.exists(out.resolve("agent-options.txt")));
  }

  @Test
  void refusesUnknownAgentOptionsAndAUsedTraceDirectoryBeforeStartingTheProgram() throws Exception {
    Path marker = tmp.resolve("program.out");
    Cli.Result r =
        run(
            "run",
            "--agent",
            agent.toString(),
            "--out",
            tmp.resolve("t3").toString(),
            "--opt",
            "mode=aggregated",
            "--",
            "-cp",
            classpath,
            ExitWith.class.getName(),
            "0");
    BadInputTest.assertOneLineError(r, "agent option: unknown option 'mode' (options: out,");
    assertTrue(!Files.exists(marker) || Files.readString(marker).isEmpty(), "the program ran");
    assertTrue(!Files.exists(tmp.resolve("t3")), "no trace directory made");

    Path used = Files.createDirectories(tmp.resolve("used"));
    Files.writeString(used.resolve("defs.wdf"), "an old trace");
    BadInputTest.assertOneLineError(
        run("run", "--agent", agent.toString(), "--out", used.toString(), "--", "-version"),
        "--out " + used + ": not empty");
    Path file = Files.writeString(tmp.resolve("afile"), "x");
    BadInputTest.assertOneLineError(
        run("run", "--agent", agent.toString(), "--out", file.toString(), "--", "-version"),
        "exists and is not a directory");
    BadInputTest.assertOneLineError(
        run("run", "--agent", classpathJarWithoutParser(), "--", "-version"),
        "not a Weft agent jar");
  }

  /** A jar with a premain but no option parser. */
  private String classpathJarWithoutParser() throws Exception {
    Path jar = tmp.resolve("other-agent.jar");
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
      out.putNextEntry(new JarEntry("README"));
      out.closeEntry();
    }
    return jar.toString();
  }

  @Test
  void badAgentOptions() {
    BadInputTest.assertOneLineError(
        run("run", "--agent", agent.toString(), "--opt", "verbose", "--", "-version"),
        "--opt verbose: expected KEY=VALUE");
    BadInputTest.assertOneLineError(
        run("run", "--agent", agent.toString(), "--opt", "include=a,b", "--", "-version"),
        "may not contain ','");
    BadInputTest.assertOneLineError(
        run("run", "--agent", agent.toString(), "--opt", "out=x", "--", "-version"),
        "use --out DIR");
    BadInputTest.assertOneLineError(
        run(
            "run",
            "--agent",
            agent.toString(),
            "--java",
            tmp.resolve("nojava").toString(),
            "--",
            "-version"),
        "nojava: no such file");
    BadInputTest.assertOneLineError(
        run("run", "--agent", agent.toString()), "Missing required parameter");
  }

  @Test
  void defaultTraceNameComesFromTheMainClassOrJar() {
    assertEquals(
        "Main",
        RunCommand.programName(List.of("-cp", "a.jar:b.jar", "-Xmx1g", "com.example.Main", "x")));
    assertEquals("app", RunCommand.programName(List.of("-Dk=v", "-jar", "build/app.jar", "arg")));
    assertEquals("Tool", RunCommand.programName(List.of("-p", "mods", "-m", "my.mod/org.x.Tool")));
    assertEquals("Hello", RunCommand.programName(List.of("src/Hello.java")));
    assertEquals("java", RunCommand.programName(List.of("-version")));
    String dir = RunCommand.defaultOut(List.of("-jar", "app.jar")).toString();
    assertTrue(dir.matches("weft-traces/app-\\d{8}-\\d{6}(-\\d+)?"), dir);
  }
}
