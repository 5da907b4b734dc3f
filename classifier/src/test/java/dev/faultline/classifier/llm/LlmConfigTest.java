package dev.faultline.classifier.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LlmConfigTest {

  @Test
  void isOffByDefault() {
    LlmConfig c = LlmConfig.fromEnvironment(Map.of(), null);
    assertFalse(c.endpointConfigured());
    assertNull(c.model());
    assertNull(c.examples());
    assertEquals(0.9, c.confidence(), 1e-9);
  }

  @Test
  void readsTheEnvironmentOverAPropertiesFileAndTheKeyFromItsNamedVariable(@TempDir Path dir)
      throws Exception {
    Path props = dir.resolve("llm.properties");
    Files.writeString(
        props,
        "FAULTLINE_LLM_ENDPOINT=http://127.0.0.1:11434\nFAULTLINE_LLM_MODEL=from-file\n"
            + "FAULTLINE_LLM_CONCURRENCY=8\nFAULTLINE_LLM_API_KEY_ENV=MY_PROVIDER_KEY\n");
    LlmConfig c =
        LlmConfig.fromEnvironment(
            Map.of(
                "FAULTLINE_LLM_CONFIG",
                props.toString(),
                "FAULTLINE_LLM_MODEL",
                "from-env",
                "MY_PROVIDER_KEY",
                "sk-secret-value",
                "FAULTLINE_LLM_TIMEOUT_MS",
                "1500"),
            null);
    assertEquals(URI.create("http://127.0.0.1:11434/v1/chat/completions"), c.chatCompletions());
    assertEquals("from-env", c.model());
    assertEquals(8, c.concurrency());
    assertEquals(Duration.ofMillis(1500), c.requestTimeout());
    assertEquals("sk-secret-value", c.apiKey());
    assertFalse(c.toString().contains("sk-secret-value"), c.toString());
    assertTrue(c.toString().contains("apiKey=**** (from MY_PROVIDER_KEY)"), c.toString());
  }

  @Test
  void anEndpointEndingInV1IsNotDoubled() {
    LlmConfig c =
        LlmConfig.from(
            Map.of(
                "FAULTLINE_LLM_ENDPOINT",
                "https://api.example.com/v1/",
                "FAULTLINE_LLM_MODEL",
                "m"));
    assertEquals(URI.create("https://api.example.com/v1/chat/completions"), c.chatCompletions());
  }

  @Test
  void refusesInvalidSettingsNamingThem() {
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> LlmConfig.from(Map.of("FAULTLINE_LLM_ENDPOINT", "http://127.0.0.1:8000")))
            .getMessage()
            .contains("FAULTLINE_LLM_MODEL"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> LlmConfig.from(Map.of("FAULTLINE_LLM_CONCURRENCY", "0")))
            .getMessage()
            .contains("FAULTLINE_LLM_CONCURRENCY must be >= 1"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> LlmConfig.from(Map.of("FAULTLINE_LLM_PRICE_INPUT_PER_1K", "cheap")))
            .getMessage()
            .contains("FAULTLINE_LLM_PRICE_INPUT_PER_1K must be a number"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    LlmConfig.from(
                        Map.of("FAULTLINE_LLM_ENDPOINT", "ftp://x", "FAULTLINE_LLM_MODEL", "m")))
            .getMessage()
            .contains("http(s)"));
    assertThrows(
        IllegalArgumentException.class,
        () -> LlmConfig.fromEnvironment(Map.of(), Path.of("/nonexistent/llm.properties")));
  }

  @Test
  void costFollowsTheConfiguredPrices() {
    LlmConfig c =
        LlmConfig.from(
            Map.of(
                "FAULTLINE_LLM_PRICE_INPUT_PER_1K",
                "0.5",
                "FAULTLINE_LLM_PRICE_OUTPUT_PER_1K",
                "2"));
    assertEquals(0.5 * 2 + 2 * 0.1, c.cost(2000, 100), 1e-9);
  }
}
