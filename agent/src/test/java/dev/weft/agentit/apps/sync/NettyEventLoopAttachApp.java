package dev.weft.agentit.apps.sync;

import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Netty's event loop across an attach: {@code NettyEventLoopAttachApp LOG AGENT_JAR OPTIONS} starts
 * a {@code DefaultEventLoop} ("loop-" thread, running before the attach), runs {@link
 * PoolWork#submittedAcrossAttach} on it for {@link #RECORD_MS} ms of recording, and writes how many
 * tasks ran to LOG. The loop's {@code run()} is one call for the loop's whole life, taking and
 * running tasks in a loop of its own: it keeps the code it began with.
 */
public final class NettyEventLoopAttachApp {
  public static final long RECORD_MS = 2_000;

  public static void main(String[] args) throws Exception {
    // Netty would use sun.misc.Unsafe, which JDK 24 and later warn about on stderr.
    System.setProperty("io.netty.noUnsafe", "true");
    EventLoop loop = new DefaultEventLoop(new DefaultThreadFactory("loop"));
    long ran = PoolWork.submittedAcrossAttach(loop, args, RECORD_MS);
    loop.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
    Files.writeString(Path.of(args[0]), "ran " + ran + "\n");
  }

  private NettyEventLoopAttachApp() {}
}
