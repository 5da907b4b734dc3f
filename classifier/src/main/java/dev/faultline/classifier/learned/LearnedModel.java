package dev.faultline.classifier.learned;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The trained artefact of the learned layer: vocabulary, per-dimension weights, calibration and
 * thresholds, the confidence at which cross-validated precision reaches 0.9, the ids and labels of
 * the training items with their quantised text vectors (for nearest-example evidence), and the
 * training report (figures only). No corpus text. Stored as gzipped JSON with float arrays in
 * base64 (little-endian), written byte-for-byte the same for the same training input.
 *
 * @param version the classifier version stored with every label, e.g. {@code
 *     learned-1.1+rules-1.3.1+taxonomy-v1}
 * @param encoder name of the text encoder the model was trained with
 * @param vectorizer the features
 * @param models per dimension
 * @param precisionLevel per dimension, the lowest confidence at which cross-validated precision is
 *     at least 0.9
 * @param neighbours the labelled training items
 * @param report the training report (cross-validation figures), JSON
 */
public record LearnedModel(
    String version,
    String encoder,
    Vectorizer vectorizer,
    Map<Target, DimensionModel> models,
    Map<Target, Double> precisionLevel,
    Neighbours neighbours,
    JsonNode report) {

  /** Version of this file format; the code refuses an artefact of another. */
  public static final int FORMAT_VERSION = 1;

  /** Where the committed artefact lives on the classpath. */
  public static final String RESOURCE = dev.faultline.artefact.LearnedArtefact.RESOURCE;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The committed artefact. */
  public static LearnedModel bundled() {
    try (InputStream in = LearnedModel.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "learned model " + RESOURCE + " is not on the classpath: run ./faultline train");
      }
      return read(in);
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot read learned model " + RESOURCE + ": " + e.getMessage(), e);
    }
  }

  /**
   * The encoder's numeric fingerprint where this artefact was trained ({@link EncoderFingerprint};
   * kept in the report as {@code encoderFingerprint}), or null for an artefact trained before it
   * was recorded.
   */
  public String encoderFingerprint() {
    return report == null ? null : report.path("encoderFingerprint").asText(null);
  }

  /** The format version of a stored artefact, without reading the rest. */
  public static int formatVersionOf(InputStream gz) throws IOException {
    return JSON.readTree(new GZIPInputStream(gz)).path("formatVersion").asInt(-1);
  }

  /** Reads an artefact (gzipped JSON). */
  public static LearnedModel read(InputStream gz) throws IOException {
    JsonNode root = JSON.readTree(new GZIPInputStream(gz));
    int format = root.path("formatVersion").asInt(-1);
    if (format != FORMAT_VERSION) {
      throw new IOException(
          "learned model format "
              + format
              + ", this code reads format "
              + FORMAT_VERSION
              + ": retrain with ./faultline train");
    }
    JsonNode v = root.path("vectorizer");
    Vectorizer vec =
        new Vectorizer(
            floats(v.path("mean")),
            floats(v.path("std")),
            strings(v.path("fixed")),
            strings(v.path("title")),
            strings(v.path("body")),
            floats(v.path("bodyIdf")),
            strings(v.path("added")),
            strings(v.path("removed")),
            strings(v.path("tokens")));
    Map<Target, DimensionModel> models = new TreeMap<>();
    Map<Target, Double> level = new TreeMap<>();
    root.path("dimensions")
        .fields()
        .forEachRemaining(
            e -> {
              Target t = Target.valueOf(e.getKey());
              JsonNode d = e.getValue();
              List<String> classes = strings(d.path("classes"));
              float[][] w = new float[classes.size()][];
              for (int k = 0; k < w.length; k++) {
                w[k] = floats(d.path("weights").get(k));
              }
              models.put(
                  t,
                  new DimensionModel(
                      classes,
                      w,
                      floats(d.path("bias")),
                      d.path("temperature").asDouble(),
                      d.path("threshold").asDouble()));
              level.put(t, d.path("precisionLevel").asDouble());
            });
    JsonNode nb = root.path("neighbours");
    List<String> ids = strings(nb.path("ids"));
    List<String> fields = strings(nb.path("fields"));
    List<Map<String, String>> labels = new ArrayList<>();
    byte[] all = Base64.getDecoder().decode(nb.path("vectors").asText());
    int dim = nb.path("dimension").asInt();
    byte[][] vectors = new byte[ids.size()][];
    for (int i = 0; i < ids.size(); i++) {
      Map<String, String> m = new LinkedHashMap<>();
      String[] codes = nb.path("labels").get(i).asText().split(",", -1);
      for (int f = 0; f < fields.size(); f++) {
        m.put(fields.get(f), codes[f]);
      }
      labels.add(m);
      vectors[i] = java.util.Arrays.copyOfRange(all, i * dim, (i + 1) * dim);
    }
    return new LearnedModel(
        root.path("version").asText(),
        root.path("encoder").asText(),
        vec,
        models,
        level,
        new Neighbours(ids, labels, vectors),
        root.path("report"));
  }

  /** Writes the artefact (gzipped JSON, no timestamp: the same model gives the same bytes). */
  public void write(OutputStream out) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", FORMAT_VERSION);
    root.put("version", version);
    root.put("encoder", encoder);
    ObjectNode v = root.putObject("vectorizer");
    v.put("mean", b64(vectorizer.mean));
    v.put("std", b64(vectorizer.std));
    strings(v.putArray("fixed"), vectorizer.fixed);
    strings(v.putArray("title"), vectorizer.title);
    strings(v.putArray("body"), vectorizer.body);
    v.put("bodyIdf", b64(vectorizer.bodyIdf));
    strings(v.putArray("added"), vectorizer.added);
    strings(v.putArray("removed"), vectorizer.removed);
    strings(v.putArray("tokens"), vectorizer.tokens);
    ObjectNode dims = root.putObject("dimensions");
    for (Map.Entry<Target, DimensionModel> e : models.entrySet()) {
      ObjectNode d = dims.putObject(e.getKey().name());
      DimensionModel m = e.getValue();
      strings(d.putArray("classes"), m.classes());
      ArrayNode w = d.putArray("weights");
      for (float[] row : m.weights()) {
        w.add(b64(row));
      }
      d.put("bias", b64(m.bias()));
      d.put("temperature", m.temperature());
      d.put("threshold", m.threshold());
      d.put("precisionLevel", precisionLevel.getOrDefault(e.getKey(), 1.0));
    }
    ObjectNode nb = root.putObject("neighbours");
    strings(nb.putArray("ids"), neighbours.ids());
    List<String> fields =
        neighbours.labels().isEmpty()
            ? List.of()
            : List.copyOf(neighbours.labels().get(0).keySet());
    strings(nb.putArray("fields"), fields);
    ArrayNode labels = nb.putArray("labels");
    for (Map<String, String> m : neighbours.labels()) {
      labels.add(String.join(",", fields.stream().map(m::get).toList()));
    }
    int dim = neighbours.vectors().length == 0 ? 0 : neighbours.vectors()[0].length;
    nb.put("dimension", dim);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] b : neighbours.vectors()) {
      all.write(b);
    }
    nb.put("vectors", Base64.getEncoder().encodeToString(all.toByteArray()));
    root.set("report", report == null ? JSON.createObjectNode() : report);
    GZIPOutputStream gz = new GZIPOutputStream(out);
    JSON.writerWithDefaultPrettyPrinter()
        .without(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_TARGET)
        .writeValue(gz, root);
    gz.finish();
  }

  private static String b64(float[] a) {
    ByteBuffer b = ByteBuffer.allocate(a.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (float f : a) {
      b.putFloat(f);
    }
    return Base64.getEncoder().encodeToString(b.array());
  }

  private static float[] floats(JsonNode n) {
    ByteBuffer b =
        ByteBuffer.wrap(Base64.getDecoder().decode(n.asText())).order(ByteOrder.LITTLE_ENDIAN);
    float[] a = new float[b.remaining() / 4];
    for (int i = 0; i < a.length; i++) {
      a[i] = b.getFloat();
    }
    return a;
  }

  private static List<String> strings(JsonNode n) {
    List<String> l = new ArrayList<>();
    n.forEach(x -> l.add(x.asText()));
    return l;
  }

  private static void strings(ArrayNode into, List<String> l) {
    l.forEach(into::add);
  }
}
