package thirdparty;

/** Runs one third-party workload: h2, h2-virtual (JDK 21+), hsqldb, reactor, caffeine, lucene, disruptor, netty, jetty, ejml, rxjava, pekko, vertx, hikari, coroutines, quartz, tomcat or undertow. */
public final class Main {
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: Main h2|h2-virtual|hsqldb|reactor|caffeine|lucene|disruptor|netty|jetty|ejml|rxjava|pekko|vertx|hikari|coroutines|quartz|tomcat|undertow [scale]");
      System.exit(2);
    }
    double scale = args.length > 1 ? Double.parseDouble(args[1]) : 1.0;
    Truth.start();
    switch (args[0]) {
      case "h2" -> H2Workload.run(scale);
      case "h2-virtual" -> H2VirtualWorkload.run(scale);
      case "hsqldb" -> HsqldbWorkload.run(scale);
      case "reactor" -> ReactorWorkload.run(scale);
      case "caffeine" -> CaffeineWorkload.run(scale);
      case "lucene" -> LuceneWorkload.run(scale);
      case "disruptor" -> DisruptorWorkload.run(scale);
      case "netty" -> NettyWorkload.run(scale);
      case "jetty" -> JettyWorkload.run(scale);
      case "ejml" -> EjmlWorkload.run(scale);
      case "rxjava" -> RxJavaWorkload.run(scale);
      case "pekko" -> PekkoWorkload.run(scale);
      case "vertx" -> VertxWorkload.run(scale);
      case "hikari" -> HikariWorkload.run(scale);
      case "coroutines" -> CoroutinesWorkload.run(scale);
      case "quartz" -> QuartzWorkload.run(scale);
      case "tomcat" -> TomcatWorkload.run(scale);
      case "undertow" -> UndertowWorkload.run(scale);
      default -> {
        System.err.println("unknown workload " + args[0]);
        System.exit(2);
      }
    }
  }

  private Main() {}
}
