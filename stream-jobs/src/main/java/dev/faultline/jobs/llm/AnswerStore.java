package dev.faultline.jobs.llm;

import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.LlmCalibration;
import java.io.Serializable;
import java.util.Optional;

/**
 * Where the stream keeps validated answers, by {@link AnswerCache#key} (prompt version, model, item
 * content) and, for answers that name their item, by (prompt version, model, item): an answer found
 * here costs no request. {@link KafkaAnswerStore} (the compacted topic) in the pipeline; {@link
 * DirectoryAnswerStore} (the CLI's cache directory) for one machine and tests. Thread-safe.
 */
public interface AnswerStore extends AutoCloseable {

  /** The answer stored under a key, if any. */
  Optional<AnswerCache.Entry> get(String key);

  /**
   * The newest answer stored for an item (an entry whose {@link AnswerCache.Entry#item()} is {@code
   * item}: batch answers imported by {@code llm import}) under a prompt version and a model, if
   * any, whatever content it was given for. "Newest" is the order the store received them in (the
   * answers topic's record time, a cache file's modification time).
   *
   * @param item as {@link AnswerCache#item(String)} normalises it
   */
  Optional<AnswerCache.Entry> forItem(String promptVersion, String model, String item);

  /**
   * The calibration of a model's answers under a prompt version ({@code faultline llm calibrate},
   * sent with {@code llm push}), if the store has one; the newest wins. None by default.
   */
  default Optional<LlmCalibration> calibration(String model, String promptVersion) {
    return Optional.empty();
  }

  /**
   * Stores an answer; a failure to store is logged, never thrown (the answer was used all the
   * same).
   */
  void put(AnswerCache.Entry entry);

  /** Answers known. */
  long size();

  @Override
  void close();

  /** Opens a store in a task manager: created where the job is built, serialized with the job. */
  interface Factory extends Serializable {
    AnswerStore open() throws Exception;
  }
}
