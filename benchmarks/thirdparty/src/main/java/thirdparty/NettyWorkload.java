package thirdparty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * Netty: an echo server on two NIO event loops that computes ~20 us per 8-byte request, and four
 * client threads that each send a request and block in a socket read for the answer, one at a time.
 * Nothing here waits on a lock or a queue: the clients and the event loops wait in the kernel
 * (socket reads, epoll), where no Java wait construct is involved. The driver times each client's
 * blocked reads itself ("client.read").
 */
@SuppressWarnings("deprecation") // NioEventLoopGroup: the 4.1 API, still in 4.2
final class NettyWorkload {
  static volatile long sink;

  static void spin(long ns) {
    long end = System.nanoTime() + ns;
    long x = 0;
    while (System.nanoTime() < end) x++;
    sink += x;
  }

  static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf b = (ByteBuf) msg;
      spin(20_000);
      ctx.writeAndFlush(b);
    }
  }

  static void run(double scale) throws Exception {
    int perClient = (int) (40_000 * scale);
    EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory("netty-boss"));
    EventLoopGroup workers = new NioEventLoopGroup(2, new DefaultThreadFactory("netty-worker"));
    try {
      ChannelFuture bound =
          new ServerBootstrap()
              .group(boss, workers)
              .channel(NioServerSocketChannel.class)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ch.pipeline().addLast(new FixedLengthFrameDecoder(8), new Echo());
                    }
                  })
              .bind(new InetSocketAddress("127.0.0.1", 0))
              .sync();
      int port = ((InetSocketAddress) bound.channel().localAddress()).getPort();
      List<Thread> clients = new ArrayList<>();
      long t0 = System.nanoTime();
      for (int k = 0; k < 4; k++) {
        Thread c =
            new Thread(
                () -> {
                  long readNs = 0;
                  try (Socket s = new Socket("127.0.0.1", port)) {
                    s.setTcpNoDelay(true);
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    for (int i = 0; i < perClient; i++) {
                      out.writeLong(i);
                      out.flush();
                      long r0 = System.nanoTime();
                      long echo = in.readLong();
                      readNs += System.nanoTime() - r0;
                      if (echo != i) throw new IllegalStateException("echo " + echo + " for " + i);
                    }
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                  Truth.add("client.read", readNs);
                  Truth.threadDone();
                },
                "netty-client-" + k);
        clients.add(c);
        c.start();
      }
      for (Thread c : clients) c.join();
      Truth.add("driver_total", System.nanoTime() - t0);
      Truth.print("netty", "netty-client-", "netty-worker-", "netty-boss-", "main");
      bound.channel().close().sync();
    } finally {
      boss.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS).sync();
      workers.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS).sync();
    }
  }

  private NettyWorkload() {}
}
