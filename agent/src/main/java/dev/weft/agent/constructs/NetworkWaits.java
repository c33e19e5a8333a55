package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Invoke;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;
import java.util.Set;

/**
 * Calls in application code that wait for the network, a {@code network} family: WAIT_ENTER/EXIT
 * (select) around a selector's blocking {@code select} calls, (accept) around {@code
 * ServerSocket.accept} and {@code ServerSocketChannel.accept}, and (http_send) around {@code
 * HttpClient.send}, also when they throw. An event loop waiting in {@code select} (Netty's, a
 * server's own) or a listener waiting for a client is idle: before this family its time counted as
 * execution, and the critical path took an idle loop for the run's work. {@code HttpClient.send}
 * waits inside the JDK while the client's own threads exchange the request and the response.
 *
 * <p>{@code selectNow} never blocks and is not an event. A non-blocking channel's {@code accept}
 * returns at once and is recorded as a wait of microseconds. Reads from a socket's stream are
 * recorded inside the JDK ({@link SocketReads}): their call sites name an {@code InputStream}.
 */
public final class NetworkWaits extends ApplicationCallSites {
  private static final int SELECT = 0;
  private static final int ACCEPT = 1;
  private static final int HTTP_SEND = 2;

  private static final String CONSUMER = "Ljava/util/function/Consumer;";

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(Set.of("java/nio/channels/Selector")))
          .call(Invoke.VIRTUAL, "select()I", SELECT)
          .call(Invoke.VIRTUAL, "select(J)I", SELECT)
          .call(Invoke.VIRTUAL, "select(" + CONSUMER + ")I", SELECT)
          .call(Invoke.VIRTUAL, "select(" + CONSUMER + "J)I", SELECT)
          .owners(Owners.orSubtypes(Set.of("java/net/ServerSocket")))
          .call(Invoke.VIRTUAL, "accept()Ljava/net/Socket;", ACCEPT)
          .owners(Owners.orSubtypes(Set.of("java/nio/channels/ServerSocketChannel")))
          .call(Invoke.VIRTUAL, "accept()Ljava/nio/channels/SocketChannel;", ACCEPT)
          .owners(Owners.orSubtypes(Set.of("java/net/http/HttpClient")))
          .call(
              Invoke.VIRTUAL,
              "send(Ljava/net/http/HttpRequest;Ljava/net/http/HttpResponse$BodyHandler;)"
                  + "Ljava/net/http/HttpResponse;",
              HTTP_SEND)
          .build();

  @Override
  public Family family() {
    return Family.NETWORK;
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    switch (row) {
      case SELECT:
        return Waits.namedByOwner(c, ConstructKind.SELECTOR, WaitKind.SELECT);
      case ACCEPT:
        return Waits.namedByOwner(c, ConstructKind.SOCKET, WaitKind.ACCEPT);
      case HTTP_SEND:
        return Waits.namedByOwner(c, ConstructKind.SOCKET, WaitKind.HTTP_SEND);
      default:
        return null;
    }
  }
}
