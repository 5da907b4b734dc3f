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
 * Pins the rules' whole output ({@value Classifier#VERSION}: every label's code, exact confidence,
 * evidence, human-given flag and distribution over its codes, the framework, the versions and the
 * cue counts the learned layer reads) on the shared corpora, by a hash: a change of the rules that
 * changes any output shows here. The corpora are read at test time from {@code ../shared} (override
 * with {@code -Dfaultline.shared=DIR}); the test is skipped where they are absent. When the rules
 * change on purpose, bump {@link Classifier#VERSION} and the hashes together.
 */
class RulesOutputPinTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "eval/dev.jsonl, 178, 13d6daec870f3f80d6301ff1df9f96ad50c53ddad2becb021405e0e2ae9ea1f2",
    "train/issues.jsonl, 709, 8c1dae2803b423207c0225d9039090adb39c10b9cab6a85df4604b94bc97d5cf",
    "train/changes.jsonl, 1632, 2afbcaa779809881f0022051c2e580639a8fa30eb73f74460574cca2b03afd0e"
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
