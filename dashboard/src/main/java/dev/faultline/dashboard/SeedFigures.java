package dev.faultline.dashboard;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The seed studies' published headline figures (P1, P2 of the codebook), from the one resource
 * {@code seed-figures.json}: studies, and per headline metric of {@code headline-summary} the
 * published value (null when the codebook states none), its source and a note.
 */
record SeedFigures(Map<String, Object> document) {
  static final String RESOURCE = "/dev/faultline/dashboard/seed-figures.json";

  static SeedFigures load(ObjectMapper mapper) {
    try (InputStream in = SeedFigures.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "Missing resource " + RESOURCE + ": the dashboard jar is incomplete");
      }
      return new SeedFigures(
          Map.copyOf(mapper.readValue(in, new TypeReference<Map<String, Object>>() {})));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + RESOURCE, e);
    }
  }

  /**
   * The published figure for a {@code headline-summary} metric, or null when the seeds give none.
   */
  @SuppressWarnings("unchecked")
  Map<String, Object> figure(String metric) {
    return ((Map<String, Map<String, Object>>) document.get("figures")).get(metric);
  }

  Object studies() {
    return document.get("studies");
  }

  Object source() {
    return document.get("source");
  }
}
