package dev.faultline.classifier.training;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Problem;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.cli.TrainCommand;
import dev.faultline.classifier.learned.Decision;
import dev.faultline.classifier.learned.DimensionModel;
import dev.faultline.classifier.learned.Example;
import dev.faultline.classifier.learned.LearnedModel;
import dev.faultline.classifier.learned.MiniLmEmbedder;
import dev.faultline.classifier.learned.Neighbours;
import dev.faultline.classifier.learned.SeededEmbedder;
import dev.faultline.classifier.learned.SparseVector;
import dev.faultline.classifier.learned.Target;
import dev.faultline.classifier.learned.TrainingData;
import dev.faultline.classifier.learned.Vectorizer;
import dev.faultline.classifier.rules.Classifier;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainerTest {

  private static final Classifier RULES = new Classifier(ClassifierConfig.defaults());

  private static List<Example> examples(int perClass, long seed) {
    return TrainingData.examples(
        Corpus.items(perClass, seed), RULES, new SeededEmbedder(), n -> {});
  }

  @Test
  void learnsTheCorpusAndAnswersUnseenItemsOfIt() {
    Trainer.Fitted m = new Trainer(1L, n -> true).train(examples(30, 1L));
    int right = 0;
    List<Example> unseen = examples(10, 99L);
    for (Example e : unseen) {
      Map<Target, Decision.Answer> a = m.answer(e.raw());
      right += a.get(Target.SYMPTOM).code().equals(e.gold().get(Target.SYMPTOM)) ? 1 : 0;
      for (Decision.Answer x : a.values()) {
        assertTrue(x.confidence() >= 0 && x.confidence() <= 1, "a probability: " + x);
      }
    }
    assertTrue(right >= 27, right + " of 30 symptoms right");
  }

  @Test
  void exportedWeightsGiveLiblinearsOwnScores() {
    List<Example> ex = examples(10, 3L);
    Vectorizer vec = Vectorizer.fit(ex.stream().map(Example::raw).toList(), n -> true);
    List<SparseVector> xs = ex.stream().map(e -> vec.vectorize(e.raw())).toList();
    Feature[][] x = Trainer.toLiblinear(xs, vec.dimension());
    List<String> gold = ex.stream().map(e -> e.gold().get(Target.SYMPTOM)).toList();
    DimensionModel dm = Trainer.fitDimension(Target.SYMPTOM, x, gold, vec.dimension());

    Problem p = new Problem();
    p.l = x.length;
    p.n = vec.dimension() + 1;
    p.x = x;
    p.bias = 1.0;
    p.y = gold.stream().mapToDouble(dm.classes()::indexOf).toArray();
    Model m = Linear.train(p, Trainer.parameter(dm.classes().size(), p.y));
    for (int i = 0; i < x.length; i++) {
      double[] dec = new double[m.getNrClass()];
      Linear.predictValues(m, x[i], dec);
      double[] ours = dm.scores(xs.get(i));
      for (int li = 0; li < m.getLabels().length; li++) {
        assertEquals(dec[li], ours[m.getLabels()[li]], 1e-4, "item " + i + " class " + li);
      }
    }
  }

  @Test
  void temperatureFitRecoversAKnownTemperature() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(5);
    List<double[]> scores = new ArrayList<>();
    List<Integer> gold = new ArrayList<>();
    double t = 2.5;
    for (int i = 0; i < 4000; i++) {
      double[] s = {r.nextGaussian() * 4, r.nextGaussian() * 4, r.nextGaussian() * 4};
      double[] p = DimensionModel.softmax(s, t);
      double u = r.nextDouble();
      gold.add(u < p[0] ? 0 : u < p[0] + p[1] ? 1 : 2);
      scores.add(s);
    }
    assertEquals(t, Calibration.fitTemperature(scores, gold), 0.25);
  }

  /**
   * The real training path twice, each in a JVM of its own: {@code train} (the bundled MiniLM
   * encoder, no vector cache shared between the runs) on a small corpus written here, and the two
   * artefacts compared byte for byte. Anything that depends on the process (an unseeded random, a
   * clock, a hash order that varies between JVMs, an encoder that is not deterministic) shows here
   * and not in a single JVM with a stand-in encoder.
   */
  @Test
  void theSameCorpusGivesTheSameArtefactBytesInTwoJvms(@TempDir Path dir) throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    writeCorpus(data);
    Process a = trainInAChildJvm(data, dir.resolve("a"));
    Process b = trainInAChildJvm(data, dir.resolve("b"));
    assertEquals(0, finish(a, dir.resolve("a")), "first training run");
    assertEquals(0, finish(b, dir.resolve("b")), "second training run");
    byte[] first = Files.readAllBytes(dir.resolve("a/model.json.gz"));
    byte[] second = Files.readAllBytes(dir.resolve("b/model.json.gz"));
    LearnedModel m = LearnedModel.read(new java.io.ByteArrayInputStream(first));
    assertEquals(MiniLmEmbedder.NAME, m.encoder(), "trained with the real encoder");
    assertEquals(ITEMS + CHANGES, m.neighbours().ids().size());
    assertArrayEquals(first, second, "two JVMs, one corpus: the same artefact bytes");
  }

  private static final int ITEMS = 36;
  private static final int CHANGES = 6;

  /** issues.jsonl and changes.jsonl in the training format, from {@link Corpus}. */
  private static void writeCorpus(Path data) throws Exception {
    ObjectMapper json = new ObjectMapper();
    StringBuilder issues = new StringBuilder();
    List<TrainingData.Item> items = Corpus.items(ITEMS / 3, 21L);
    for (TrainingData.Item it : items) {
      ObjectNode r = record(json, it, "https://github.com/acme/trainer/issues/" + it.number());
      r.put("title", it.text().title()).put("text", it.text().body());
      issues.append(json.writeValueAsString(r)).append('\n');
    }
    StringBuilder changes = new StringBuilder();
    for (int c = 0; c < CHANGES; c++) {
      TrainingData.Item fixed = items.get(c);
      int number = 500 + c;
      ObjectNode r = record(json, fixed, "https://github.com/acme/trainer/pull/" + number);
      r.put("number", number);
      r.put("title", "Fix " + fixed.text().title().toLowerCase(java.util.Locale.ROOT));
      r.put("text", "Fixes #" + fixed.number() + ". Guard the collective and add a test.");
      r.put(
          "diff",
          "diff --git a/engine/comm.py b/engine/comm.py\n--- a/engine/comm.py\n"
              + "+++ b/engine/comm.py\n@@ -1,2 +1,3 @@\n-    dist.barrier()\n"
              + "+    dist.barrier(timeout=timeout)\n+    check_ranks(group)\n");
      changes.append(json.writeValueAsString(r)).append('\n');
    }
    Files.writeString(data.resolve("issues.jsonl"), issues);
    Files.writeString(data.resolve("changes.jsonl"), changes);
  }

  private static ObjectNode record(ObjectMapper json, TrainingData.Item it, String url) {
    ObjectNode r = json.createObjectNode();
    r.put("url", url).put("repo", it.repo()).put("number", it.number());
    ObjectNode gold = r.putObject("gold");
    for (Target t : Target.values()) {
      String code = it.gold().get(t);
      if (code.equals("null")) {
        gold.putNull(t.field);
      } else if (t.dimension == dev.faultline.schemas.taxonomy.Dimension.DISTRIBUTED_SPECIFIC) {
        gold.put(t.field, Boolean.parseBoolean(code));
      } else {
        gold.put(t.field, code);
      }
    }
    return r;
  }

  /**
   * {@code train --no-cv} in a new JVM on this test's class path, with a vector cache of its own.
   */
  private static Process trainInAChildJvm(Path data, Path run) throws Exception {
    Files.createDirectories(run);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(TrainCommand.class.getName());
    cmd.addAll(
        List.of(
            "--data",
            data.toString(),
            "--output",
            run.resolve("model.json.gz").toString(),
            "--cache",
            run.resolve("cache").toString(),
            "--folds",
            "2",
            "--no-cv"));
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(run.resolve("log.txt").toFile())
        .start();
  }

  private static int finish(Process p, Path run) throws Exception {
    if (!p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(
          "training did not finish: " + Files.readString(run.resolve("log.txt")));
    }
    int code = p.exitValue();
    if (code != 0) {
      System.err.println(Files.readString(run.resolve("log.txt")));
    }
    return code;
  }

  @Test
  void anArtefactReadBackAnswersAsTheModelDid() throws Exception {
    List<Example> ex = examples(12, 13L);
    Trainer.Fitted m = new Trainer(7L, n -> true).train(ex);
    LearnedModel model =
        new LearnedModel(
            "test",
            "test-hashing",
            m.vectorizer(),
            m.models(),
            Map.of(),
            new Neighbours(List.of(), List.of(), new byte[0][]),
            null);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    model.write(out);
    LearnedModel back = LearnedModel.read(new java.io.ByteArrayInputStream(out.toByteArray()));
    for (Example e : ex) {
      SparseVector a = m.vectorizer().vectorize(e.raw());
      SparseVector b = back.vectorizer().vectorize(e.raw());
      for (Target t : Target.values()) {
        assertArrayEquals(
            m.models().get(t).probabilities(a), back.models().get(t).probabilities(b), 1e-6);
      }
    }
  }
}
