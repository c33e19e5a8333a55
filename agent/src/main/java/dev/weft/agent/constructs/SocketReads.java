package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;
import java.util.Set;

/**
 * Reads from a connected {@code java.net.Socket}'s stream, a {@code network} family:
 * WAIT_ENTER/EXIT (socket_read) around the read inside the JDK's socket implementation ({@code
 * sun.nio.ch.NioSocketImpl.read(byte[], int, int)} calling {@code implRead}, on JDK 13 and later),
 * also when it throws (a timeout, a reset). The program's call sites name an {@code InputStream}
 * (often wrapped in a reader or a buffered stream), which cannot tell a socket from a file, so the
 * read is recorded where every socket read passes. A thread blocked there used to count as
 * executing; only the note on time off the CPU hinted at it.
 *
 * <p>Every read is recorded, also one whose data had already arrived: its wait is then the read's
 * system call, microseconds. Reads of socket channels ({@code SocketChannel.read}) are not
 * recorded: non-blocking ones (Netty's, after a select) never wait.
 */
public final class SocketReads implements ConstructInstrumentation {
  static final String SOCKET_IMPL = "sun/nio/ch/NioSocketImpl";

  @Override
  public Family family() {
    return Family.NETWORK;
  }

  @Override
  public Set<String> jdkClasses() {
    return Set.of(SOCKET_IMPL);
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    return JdkMethods.callSitesIn(
        target,
        "read",
        "([BII)I",
        (opcode, owner, callName, callDescriptor) -> {
          // JDK 17: implRead([BII)I; JDK 21 and later add the read's deadline: ([BIIJ)I.
          if (!owner.equals(SOCKET_IMPL) || !callName.equals("implRead")) {
            return null;
          }
          int region = ExecutorTasks.region(target, ConstructKind.SOCKET, "Socket read", "read");
          return Waits.waiting(region, WaitKind.SOCKET_READ, true);
        });
  }
}
