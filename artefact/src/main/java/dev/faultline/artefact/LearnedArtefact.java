package dev.faultline.artefact;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The shipped learned classifier artefact ({@link #RESOURCE}: gzip'd JSON the classifier's trainer
 * writes and its inference reads) and the one reader of its calibration that needs no classifier:
 * per dimension, the confidence at which the classifier's cross-validated precision reaches 0.9
 * ({@code dimensions.<TARGET>.precisionLevel}). The graph's default confidence bars are these
 * levels, read here at start-up, so a retrained artefact moves them with it.
 */
public final class LearnedArtefact {

  /** The artefact on the class path. */
  public static final String RESOURCE = "/dev/faultline/classifier/learned-model.json.gz";

  /** The precision the levels are chosen for. */
  public static final double TARGET_PRECISION = 0.9;

  private LearnedArtefact() {}

  /** The gzip'd artefact. */
  public static InputStream open() {
    InputStream in = LearnedArtefact.class.getResourceAsStream(RESOURCE);
    if (in == null) {
      throw new IllegalStateException("no learned artefact on the class path at " + RESOURCE);
    }
    return in;
  }

  private static final class Levels {
    static final Map<Dimension, Double> BUNDLED = readLevels();
  }

  /**
   * Per {@link Dimension#LABELLED} dimension, the confidence bar for {@link #TARGET_PRECISION}: the
   * bundled artefact's precision level rounded up to 3 decimals (so a bar never admits less
   * precision than measured).
   *
   * @throws IllegalStateException when the artefact lacks a labelled dimension's level
   */
  public static Map<Dimension, Double> calibratedBars() {
    return Levels.BUNDLED;
  }

  /** The bars of an artefact ({@link #calibratedBars()} of the bundled one). */
  public static Map<Dimension, Double> calibratedBars(InputStream gz) throws IOException {
    Map<String, Double> levels = precisionLevels(gz);
    Map<Dimension, Double> bars = new LinkedHashMap<>();
    for (Dimension d : Dimension.LABELLED) {
      Double level = levels.get(artefactName(d));
      if (level == null) {
        throw new IllegalStateException(
            "the learned artefact has no precision level for " + d + " (" + artefactName(d) + ")");
      }
      bars.put(d, Math.ceil(level * 1000) / 1000);
    }
    return Collections.unmodifiableMap(bars);
  }

  /**
   * The artefact's name of a dimension: the constant's name, {@code DISTRIBUTED} for
   * distributed-specific (the name the artefact format has always used).
   */
  public static String artefactName(Dimension d) {
    return d == Dimension.DISTRIBUTED_SPECIFIC ? "DISTRIBUTED" : d.name();
  }

  private static Map<Dimension, Double> readLevels() {
    try (InputStream in = open()) {
      return calibratedBars(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the learned artefact " + RESOURCE, e);
    }
  }

  /**
   * Streams the artefact and keeps only {@code dimensions.*.precisionLevel}: the weights and
   * neighbours are skipped without being built.
   */
  static Map<String, Double> precisionLevels(InputStream gz) throws IOException {
    Map<String, Double> out = new LinkedHashMap<>();
    try (JsonParser p = new JsonFactory().createParser(new GZIPInputStream(gz))) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("the artefact is not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        if (!"dimensions".equals(field)) {
          p.skipChildren();
          continue;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String target = p.currentName();
          p.nextToken();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            p.nextToken();
            if ("precisionLevel".equals(key)) {
              out.put(target, p.getDoubleValue());
            } else {
              p.skipChildren();
            }
          }
        }
      }
    }
    return out;
  }
}
