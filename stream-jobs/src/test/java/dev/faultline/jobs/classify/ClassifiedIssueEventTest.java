package dev.faultline.jobs.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.graph.IssueRow;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.sink.ClassifiedIssueRecords;
import dev.faultline.jobs.sink.IssueRows;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.ClassifiedIssue;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Phase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The pipeline's domain record, its way through Flink, and its two one-way mappers. */
class ClassifiedIssueEventTest {
  private static final IssueClassification CLASSIFICATION =
      new IssueClassification(new Classifier(ClassifierConfig.defaults()));

  private static ClassifiedIssueEvent classified() {
    IssueEvent i = new IssueEvent();
    i.id = "deepspeedai/DeepSpeed#7";
    i.repo = "deepspeedai/DeepSpeed";
    i.number = 7;
    i.title = "Hang in allreduce with ZeRO-3 on 2 nodes";
    i.body =
        "NCCL watchdog timeout after 30 min, deepspeed 0.14.2, torch 2.3.0; training stalls on all ranks";
    i.state = "open";
    i.url = "https://github.com/deepspeedai/DeepSpeed/issues/7";
    i.labels = new ArrayList<>(List.of("bug", "training"));
    i.createdAt = 1_700_000_000_000L;
    i.updatedAt = 1_700_000_100_000L;
    GitHubEvent e = new GitHubEvent();
    e.type = GitHubEvent.Type.ISSUE;
    e.key = i.id;
    e.issue = i;
    e.deliveryId = "d-1";
    IssueAccumulator acc = new IssueAccumulator();
    acc.fold(e);
    return CLASSIFICATION.classify(acc, 42L, "d-1");
  }

  @Test
  void travelsThroughFlinksSerializerUnchanged() throws Exception {
    ClassifiedIssueEvent e = classified();
    TypeSerializer<ClassifiedIssueEvent> serializer =
        TypeInformation.of(ClassifiedIssueEvent.class).createSerializer(new SerializerConfigImpl());
    DataOutputSerializer out = new DataOutputSerializer(1024);
    serializer.serialize(e, out);
    ClassifiedIssueEvent back =
        serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    ClassifiedIssueEvent copy = serializer.copy(e);
    AvroCodec<ClassifiedIssue> codec = AvroCodec.classifiedIssues();
    for (ClassifiedIssueEvent other : List.of(back, copy)) {
      assertEquals(
          IssueRows.of(e).toParameters().toString(), IssueRows.of(other).toParameters().toString());
      assertEquals(
          java.util.HexFormat.of().formatHex(codec.encode(ClassifiedIssueRecords.of(e))),
          java.util.HexFormat.of().formatHex(codec.encode(ClassifiedIssueRecords.of(other))));
    }
  }

  @Test
  void mappersNameDimensionsByTheirKeyAtTheEdgesOnly() {
    ClassifiedIssueEvent e = classified();
    assertEquals(
        Phase.TRAINING,
        e.classification.label(Dimension.PHASE).value(),
        "the 'training' label is a person's");
    assertEquals(List.of(Dimension.PHASE), e.humanGiven());

    ClassifiedIssue avro = ClassifiedIssueRecords.of(e);
    Set<String> keys =
        Set.of(
            "kind", "symptom", "rootCause", "fixPattern", "stage", "phase", "distributedSpecific");
    assertEquals(keys, avro.getConfidence().keySet());
    assertEquals(List.of("phase"), avro.getHumanGiven());
    assertEquals("0.14.2", avro.getFrameworkVersion());
    assertEquals("d-1", avro.getDeliveryId());
    assertEquals(42L, e.classifiedAt);

    IssueRow row = IssueRows.of(e);
    Map<String, Object> p = row.toParameters();
    @SuppressWarnings("unchecked")
    Map<String, Object> props = (Map<String, Object>) p.get("classification");
    assertEquals("TRAINING", props.get("phase"));
    assertEquals(List.of("phase"), props.get("humanGiven"));
    assertEquals(avro.getKind().name(), props.get("kind"));
    assertEquals("0.14.2", p.get("frameworkVersion"));
    if (!Dimension.isCategory((Enum<?>) row.classification().code(Dimension.ROOT_CAUSE))) {
      assertNull(p.get("rootCauseEdge"), "no edge to UNKNOWN");
    }
  }
}
