package dev.faultline.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IngestConfigTest {
  private static final Path DATA = Path.of("/data");

  @Test
  void readsEverythingFromTheEnvironment() {
    IngestConfig config =
        IngestConfig.fromEnvironment(
            Map.of(
                "FAULTLINE_WEBHOOK_SECRET", "s1",
                "FAULTLINE_WEBHOOK_SECRET_PREVIOUS", "s0",
                "FAULTLINE_KAFKA_BOOTSTRAP_SERVERS", "kafka:9093",
                "FAULTLINE_KAFKA_PRODUCER_SECURITY_PROTOCOL", "SASL_SSL",
                "FAULTLINE_KAFKA_PRODUCER_SASL_JAAS_CONFIG",
                    "org.apache.kafka...PlainLoginModule password=\"p\";",
                "FAULTLINE_WEBHOOK_MAX_BODY_BYTES", "1000",
                "FAULTLINE_WEBHOOK_MAX_DELIVERY_AGE", "P3D",
                "FAULTLINE_WEBHOOK_HANDOFF_TIMEOUT", "PT2S"),
            false,
            DATA);

    assertEquals(List.of("s1", "s0"), config.secrets());
    assertEquals("kafka:9093", config.bootstrapServers());
    assertEquals("SASL_SSL", config.producerProperties().get("security.protocol"));
    assertTrue(config.producerProperties().containsKey("sasl.jaas.config"));
    assertEquals(1000, config.maxBodyBytes());
    assertEquals(Duration.ofDays(3), config.maxDeliveryAge());
    assertEquals(Duration.ofSeconds(2), config.handoffTimeout());
    assertEquals(DATA.resolve("spool"), config.spoolDir());
    assertEquals("faultline.deliveries", config.deliveryTopic());
    assertEquals(
        IngestConfig.DEFAULT_MAX_BODY_BYTES,
        IngestConfig.builder().secret("x").build().maxBodyBytes());
  }

  @Test
  void extraProducerPropertiesOverrideTheDurableDefaults() {
    IngestConfig config =
        IngestConfig.builder()
            .secret("s")
            .producerProperties(Map.of("security.protocol", "SASL_SSL", "linger.ms", "20"))
            .build();
    Map<String, Object> props = KafkaDeliveryPublisher.producerProperties(config);
    assertEquals("all", props.get("acks"));
    assertEquals(true, props.get("enable.idempotence"));
    assertEquals("SASL_SSL", props.get("security.protocol"));
    assertEquals("20", props.get("linger.ms"));
  }

  @Test
  void refusesToStartWithoutASecretOutsideLocalMode() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> IngestConfig.fromEnvironment(Map.of(), false, DATA));
    assertTrue(e.getMessage().contains("set FAULTLINE_WEBHOOK_SECRET"), e.getMessage());
    assertFalse(IngestConfig.fromEnvironment(Map.of(), true, DATA).verifiesSignatures());
  }

  @Test
  void explainsBadValues() {
    IllegalArgumentException duration =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                IngestConfig.fromEnvironment(
                    Map.of(
                        "FAULTLINE_WEBHOOK_SECRET", "s", "FAULTLINE_WEBHOOK_HANDOFF_TIMEOUT", "5s"),
                    false,
                    DATA));
    assertTrue(
        duration.getMessage().contains("ISO-8601 duration such as PT5S"), duration.getMessage());
    IllegalArgumentException size =
        assertThrows(
            IllegalArgumentException.class,
            () -> IngestConfig.builder().secret("s").maxBodyBytes(0).build());
    assertTrue(size.getMessage().contains("FAULTLINE_WEBHOOK_MAX_BODY_BYTES"), size.getMessage());
  }

  @Test
  void masksSecretsInToString() {
    IngestConfig config =
        IngestConfig.builder()
            .secrets(List.of("very-secret-1", "very-secret-2"))
            .producerProperties(
                Map.of("sasl.jaas.config", "password=hunter2", "security.protocol", "SASL_SSL"))
            .build();
    String text = config.toString();
    assertFalse(text.contains("very-secret"), text);
    assertFalse(text.contains("hunter2"), text);
    assertTrue(text.contains("secrets=[****, ****]"), text);
    assertTrue(text.contains("SASL_SSL"), text);
  }
}
