package dev.faultline.jobs.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.LlmFixtures;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmSettingsTest {

  /** A job's environment: the graph's password and the given pairs. */
  private static Map<String, String> env(String... pairs) {
    Map<String, String> env =
        new java.util.HashMap<>(Map.of("FAULTLINE_NEO4J_PASSWORD", "test-password"));
    for (int i = 0; i < pairs.length; i += 2) {
      env.put(pairs[i], pairs[i + 1]);
    }
    return env;
  }

  @Test
  void offUnlessAnEndpointIsSet() {
    assertFalse(LlmSettings.fromEnvironment(Map.of()).enabled());
    assertFalse(LlmSettings.fromEnvironment(Map.of("FAULTLINE_LLM_MODEL", "m")).enabled());
    assertFalse(JobConfig.fromArgs(new String[0], env()).llm().enabled());
    JobConfig on =
        JobConfig.fromArgs(
            new String[0],
            env(
                "FAULTLINE_LLM_ENDPOINT",
                "http://127.0.0.1:11434",
                "FAULTLINE_LLM_MODEL",
                "qwen2.5:7b"));
    assertTrue(on.llm().enabled());
    assertEquals("qwen2.5:7b", on.llm().config().model());
  }

  @Test
  void theAsyncTimeoutCoversEveryAttemptByDefault() {
    LlmSettings s =
        LlmSettings.of(
            LlmFixtures.settings(
                "http://h:8000",
                "m",
                "FAULTLINE_LLM_TIMEOUT_MS",
                "1000",
                "FAULTLINE_LLM_MAX_RETRIES",
                "2",
                "FAULTLINE_LLM_BACKOFF_MS",
                "100"));
    assertEquals(Duration.ofMillis(3 * 1000 + 100 + 200 + 5000), s.asyncTimeout());
    assertEquals(200, s.capacity());
    assertEquals(100, s.maxWaiting());
    assertEquals(
        Duration.ofMillis(7),
        LlmSettings.of(
                LlmFixtures.settings("http://h:8000", "m", "FAULTLINE_LLM_ASYNC_TIMEOUT_MS", "7"))
            .asyncTimeout());
  }

  @Test
  void badSettingsFailWhereTheJobIsBuiltWithWhatToFix() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> LlmSettings.of(Map.of("FAULTLINE_LLM_ENDPOINT", "http://h:8000")));
    assertTrue(e.getMessage().contains("FAULTLINE_LLM_MODEL"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LlmSettings.of(
                    LlmFixtures.settings(
                        "http://h:8000", "m", "FAULTLINE_LLM_ASYNC_CAPACITY", "many")));
    assertTrue(e.getMessage().contains("FAULTLINE_LLM_ASYNC_CAPACITY"), e.getMessage());
  }

  @Test
  void theApiKeyIsMasked() {
    LlmSettings s =
        LlmSettings.fromEnvironment(
            LlmFixtures.settings(
                "https://api.example.com", "m", "FAULTLINE_LLM_API_KEY", "sk-secret-123"));
    assertEquals("sk-secret-123", s.config().apiKey());
    assertFalse(s.toString().contains("sk-secret-123"), s.toString());
    assertFalse(
        JobConfig.fromArgs(
                new String[0],
                env(
                    "FAULTLINE_LLM_ENDPOINT",
                    "https://api.example.com",
                    "FAULTLINE_LLM_MODEL",
                    "m",
                    "FAULTLINE_LLM_API_KEY",
                    "sk-secret-123"))
            .toString()
            .contains("sk-secret-123"));
  }
}
