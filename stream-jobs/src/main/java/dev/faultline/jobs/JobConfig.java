package dev.faultline.jobs;

import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.common.JobArgs;
import dev.faultline.jobs.common.JobIo;
import dev.faultline.jobs.llm.AnswerStore;
import dev.faultline.jobs.llm.LlmSettings;
import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the issue pipeline needs from its deployment, built once at the edge: by {@link
 * #fromArgs} in the job's {@code main}, or directly by the local stack and {@code faultline
 * reclassify}.
 *
 * @param io Kafka, graph, sink, checkpoints and parallelism
 * @param tier the offline classifier ({@code FAULTLINE_CLASSIFIER_TIER})
 * @param llm the language-model tier ({@code FAULTLINE_LLM_*}); {@link LlmSettings#OFF}: off
 * @param replay live, or a bounded replay of history and its scope
 */
public record JobConfig(JobIo io, ClassifierTier tier, LlmSettings llm, Replay replay)
    implements Serializable {

  /** What the job's flags fall back to: its consumer group, checkpoints every 5 s. */
  public static final JobIo.Defaults DEFAULTS =
      new JobIo.Defaults("faultline-issue-pipeline", Duration.ofSeconds(5));

  public JobConfig {
    Objects.requireNonNull(io, "io");
    Objects.requireNonNull(tier, "tier");
    Objects.requireNonNull(replay, "replay");
    llm = llm == null ? LlmSettings.OFF : llm;
  }

  /** The live pipeline on {@code io} with the learned tier and the language-model tier off. */
  public static JobConfig live(JobIo io) {
    return new JobConfig(io, ClassifierTier.LEARNED, LlmSettings.OFF, Replay.LIVE);
  }

  /** A copy with the language-model tier's settings. */
  public JobConfig withLlm(LlmSettings settings) {
    return new JobConfig(io, tier, settings, replay);
  }

  /** A copy with another offline tier. */
  public JobConfig withTier(ClassifierTier newTier) {
    return new JobConfig(io, newTier, llm, replay);
  }

  /** A copy that runs as {@code newReplay}. */
  public JobConfig withReplay(Replay newReplay) {
    return new JobConfig(io, tier, llm, newReplay);
  }

  /**
   * What the pipeline's functions take: the tiers, the replay's scope, and the graph of stored text
   * vectors when the replay reads them.
   *
   * @param answers where the language-model tier's answers are kept (null when it is off)
   */
  public IssuePipeline.Settings pipelineSettings(AnswerStore.Factory answers) {
    return new IssuePipeline.Settings(
        tier,
        llm,
        answers,
        replay.scope(),
        replay.storedVectors() ? io.graph() : null,
        replay.resume(),
        replay.bounded() ? "replay:" + io.groupId() : null);
  }

  /**
   * Reads the job's {@code --name value} arguments ({@link JobArgs#io}: Kafka, Neo4j, group, sink,
   * checkpoints, parallelism; {@code --replay true} with {@code --replay-since}, {@code
   * --replay-until}, {@code --replay-framework}, {@code --replay-resume}: {@link Replay#fromArgs}),
   * falling back to {@code env}. The tiers come from the environment only: {@code
   * FAULTLINE_CLASSIFIER_TIER} and {@code FAULTLINE_LLM_*} (the language model's API key never
   * travels in program arguments).
   */
  public static JobConfig fromArgs(String[] args, Map<String, String> env) {
    JobArgs a = JobArgs.parse(args);
    return new JobConfig(
        a.io(env, DEFAULTS),
        ClassifierTier.fromEnvironment(env),
        LlmSettings.fromEnvironment(env),
        Replay.fromArgs(a));
  }
}
