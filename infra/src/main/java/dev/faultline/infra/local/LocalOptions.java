package dev.faultline.infra.local;

import java.nio.file.Path;

/**
 * Settings of {@code faultline local} (its options: {@link LocalCommand}).
 *
 * @param dataDir where Kafka logs, the Neo4j store, Flink checkpoints and the spool live
 */
public record LocalOptions(
    Path dataDir,
    int httpPort,
    int kafkaPort,
    int boltPort,
    int neo4jHttpPort,
    int flinkRestPort) {}
