package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;
import java.util.Set;

/**
 * The JDK's own selector loops, a {@code network} family: WAIT_ENTER/EXIT (select) around the
 * {@code Selector.select(timeout)} in the {@code run()} of {@code java.net.http.HttpClient}'s
 * selector thread ({@code HttpClient-N-SelectorManager}) and of the JDK's HTTP server's dispatcher
 * ({@code com.sun.net.httpserver}, thread {@code HTTP-Dispatcher}), on JDK 17 and 25. The program's
 * own selects are woven at its call sites ({@link NetworkWaits}); these loops are JDK code, which
 * call sites never reach, so their idle time counted as execution and the note on time off the CPU
 * named them.
 */
public final class JdkSelectorLoops implements ConstructInstrumentation {
  private static final Set<String> LOOPS =
      Set.of(
          "jdk/internal/net/http/HttpClientImpl$SelectorManager",
          "sun/net/httpserver/ServerImpl$Dispatcher");

  @Override
  public Family family() {
    return Family.NETWORK;
  }

  @Override
  public Set<String> jdkClasses() {
    return LOOPS;
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    return JdkMethods.callSitesIn(
        target,
        "run",
        "()V",
        (opcode, owner, callName, callDescriptor) -> {
          if (!owner.equals("java/nio/channels/Selector")
              || !callName.equals("select")
              || !callDescriptor.equals("(J)I")) {
            return null;
          }
          int region =
              ExecutorTasks.region(target, ConstructKind.SELECTOR, "Selector.select", "run");
          return Waits.waiting(region, WaitKind.SELECT, true);
        });
  }
}
