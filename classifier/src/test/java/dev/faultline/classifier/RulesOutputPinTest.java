package dev.faultline.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.batch.ThreadText;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.schemas.taxonomy.Dimension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pins the rules' whole analysis ({@value Classifier#VERSION}: every label's code, exact
 * confidence, evidence and human-given flag, the framework, the versions and the cue counts the
 * learned layer reads) on the shared corpora, by a hash: a change of the rules that changes any
 * output shows here. (The analysis carries no distributions since issue #31: {@link
 * Classifier#classify} adds them from the rules' confusion; with the old spread of each label's
 * confidence put back in the dump, the hashes of before issue #31 come out again, so the rules'
 * features are unchanged.) The corpora are read at test time from {@code ../shared} (override with
 * {@code -Dfaultline.shared=DIR}); the test is skipped where they are absent. When the rules change
 * on purpose, bump {@link Classifier#VERSION} and the hashes together.
 */
class RulesOutputPinTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "eval/dev.jsonl, 178, 3f889f632280636ae24f673f75caa04be0a5ad3d7d567283c29adce2d2da1ae5",
    "train/issues.jsonl, 709, 196130022173f081ed5229ae20a24644b6355426a5ac10a1831050f3995e32e3",
    "train/changes.jsonl, 1632, 64179cf45898f5883cd10a85d62354521cfa294c1bae62e768d9677621bc5024"
  })
  void rulesOutputIsUnchanged(String file, int items, String expectedHash) throws Exception {
    Path shared = Path.of(System.getProperty("faultline.shared", "../../shared"));
    Path corpus = shared.resolve(file);
    assumeTrue(
        Files.isRegularFile(corpus),
        corpus + " not found: the rules' output pin needs the shared corpus");
    Classifier rules = new Classifier(ClassifierConfig.defaults());
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    int n = 0;
    for (String line : Files.readAllLines(corpus, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode r = JSON.readTree(line);
      sha.update(
          dump(r.path("url").asText(), rules.analyse(ThreadText.ofRecord(r)))
              .getBytes(StandardCharsets.UTF_8));
      n++;
    }
    assertEquals(items, n, "items in " + corpus);
    assertEquals(
        expectedHash,
        HexFormat.of().formatHex(sha.digest()),
        "the rules' output on " + corpus + " changed");
  }

  private static String dump(String url, Classifier.Analysis a) {
    Classification c = a.classification();
    StringBuilder s = new StringBuilder(url).append('\n');
    label(s, "kind", c.kind());
    label(s, "symptom", c.symptom());
    label(s, "symptomClass", c.symptomClass());
    label(s, "rootCause", c.rootCause());
    label(s, "fixPattern", c.fixPattern());
    label(s, "stage", c.stage());
    label(s, "phase", c.label(Dimension.PHASE));
    label(s, "distributedSpecific", c.label(Dimension.DISTRIBUTED_SPECIFIC));
    label(s, "framework", c.framework());
    s.append(c.versions()).append(' ').append(c.classifierVersion()).append('\n');
    s.append(new TreeMap<>(a.reporterCues()))
        .append(' ')
        .append(new TreeMap<>(a.threadCues()))
        .append('\n');
    return s.toString();
  }

  private static void label(StringBuilder s, String name, Label<?> l) {
    s.append(name)
        .append(' ')
        .append(l.value())
        .append(' ')
        .append(Double.toString(l.confidence()))
        .append(' ')
        .append(l.humanGiven())
        .append(' ')
        .append(l.evidence())
        .append(' ')
        .append(l.distribution())
        .append('\n');
  }
}
