package dev.faultline.jobs.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.llm.LlmCalibration;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A language model's calibration ({@link LlmCalibration}) as a record of the answers topic, so it
 * reaches every subtask that reads the topic (on a cluster, every task manager) with the answers it
 * belongs to. Key {@code calibration:<model>/<prompt version>} (compaction keeps the newest per
 * model and prompt; an answer's key is 64 hex digits, so the two never meet), value the same JSON
 * object as the file {@code llm calibrate} writes into a cache directory ({@code type} {@value
 * LlmCalibration#TYPE}).
 */
public final class CalibrationRecords {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The prefix of a calibration's record key. */
  public static final String KEY_PREFIX = "calibration:";

  private CalibrationRecords() {}

  /** The record key of a calibration. */
  public static String key(LlmCalibration c) {
    return KEY_PREFIX + c.model() + "/" + c.promptVersion();
  }

  /** Whether a record key is a calibration's. */
  public static boolean isKey(String key) {
    return key != null && key.startsWith(KEY_PREFIX);
  }

  /** The record value of a calibration. */
  public static byte[] encode(LlmCalibration c) {
    return c.toJson(JSON).toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The calibration of a record value; empty when it is not one this version reads. */
  public static Optional<LlmCalibration> decode(byte[] value) {
    if (value == null) {
      return Optional.empty();
    }
    try {
      JsonNode n = JSON.readTree(value);
      return LlmCalibration.isCalibration(n)
          ? Optional.of(LlmCalibration.fromJson(n))
          : Optional.empty();
    } catch (java.io.IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
