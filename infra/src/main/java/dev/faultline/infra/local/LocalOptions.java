package dev.faultline.infra.local;

import java.nio.file.Path;

/**
 * Flags of {@code faultline local}.
 *
 * @param dataDir where Kafka logs, the Neo4j store, Flink checkpoints and the spool live
 */
public record LocalOptions(Path dataDir, int httpPort, int kafkaPort, int boltPort, int neo4jHttpPort, int flinkRestPort) {
  public static final String USAGE =
      """
      Usage: faultline local [--data-dir DIR] [--http-port N] [--kafka-port N] [--bolt-port N]
                             [--neo4j-http-port N] [--flink-rest-port N]

      Starts the whole stack in this process, on 127.0.0.1 only: a Kafka broker (KRaft), a Neo4j server, a Flink
      MiniCluster running the issue pipeline, and the webhook receiver. Stop with Ctrl-C or SIGTERM; a later start on
      the same --data-dir resumes where it stopped.

        --data-dir DIR         state directory (default .faultline/)
        --http-port N          webhook receiver, /health, /metrics (default 8080)
        --kafka-port N         Kafka broker (default 9092)
        --bolt-port N          Neo4j Bolt (default 7687)
        --neo4j-http-port N    Neo4j HTTP API (default 7474)
        --flink-rest-port N    Flink REST API (default 8081; 0 picks a free port)

      Environment: FAULTLINE_WEBHOOK_SECRET, FAULTLINE_NEO4J_PASSWORD (generated, kept in DIR/secrets.properties
      and printed when unset).
      """;

  public static LocalOptions parse(String[] args) {
    Path dataDir = Path.of(".faultline");
    int http = 8080;
    int kafka = 9092;
    int bolt = 7687;
    int neo4jHttp = 7474;
    int flinkRest = 8081;
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("Flag " + flag + " needs a value. " + hint());
      }
      String value = args[++i];
      switch (flag) {
        case "--data-dir" -> dataDir = Path.of(value);
        case "--http-port" -> http = port(flag, value);
        case "--kafka-port" -> kafka = port(flag, value);
        case "--bolt-port" -> bolt = port(flag, value);
        case "--neo4j-http-port" -> neo4jHttp = port(flag, value);
        case "--flink-rest-port" -> flinkRest = port(flag, value);
        default -> throw new IllegalArgumentException("Unknown flag " + flag + ". " + hint());
      }
    }
    return new LocalOptions(dataDir, http, kafka, bolt, neo4jHttp, flinkRest);
  }

  private static int port(String flag, String value) {
    try {
      int port = Integer.parseInt(value);
      if (port < 0 || port > 65535) {
        throw new NumberFormatException();
      }
      return port;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " must be a port number between 0 and 65535, got '" + value + "'");
    }
  }

  private static String hint() {
    return "Run 'faultline local --help' for the flags.";
  }
}
