package dev.faultline.jobs;

import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.jobs.common.JobArgs;
import java.io.Serializable;
import java.util.Objects;

/**
 * Whether the issue pipeline runs live or replays history ({@code faultline reclassify}, a
 * benchmark), and how.
 *
 * @param bounded the source stops at the deliveries topic's end offsets of when the job started, so
 *     the job ends once it has processed what the topic held; false = live
 * @param scope the issues and pull requests classified and written ({@link ReplayScope#ALL} but in
 *     a scoped replay; a live pipeline keeps every issue)
 * @param storedVectors the learned classifier reads each text vector from the graph when the graph
 *     has it under the text's key, and encodes only the texts it has not seen (the default of a
 *     replay of history, whose texts the live pipeline encoded and stored before)
 */
public record Replay(boolean bounded, ReplayScope scope, boolean storedVectors)
    implements Serializable {

  /** The live pipeline: unbounded, every issue, every text encoded. */
  public static final Replay LIVE = new Replay(false, ReplayScope.ALL, false);

  public Replay {
    Objects.requireNonNull(scope, "scope");
    if (!bounded && !scope.isAll()) {
      throw new IllegalArgumentException(
          "A scope (--replay-since/--replay-until/--replay-framework) narrows a bounded replay"
              + " only (--replay true); the live pipeline keeps every issue");
    }
  }

  /** A bounded replay of {@code scope} reading stored text vectors. */
  public static Replay of(ReplayScope scope) {
    return new Replay(true, scope, true);
  }

  /** This replay, reading stored text vectors or not. */
  public Replay withStoredVectors(boolean read) {
    return new Replay(bounded, scope, read);
  }

  /**
   * {@code --replay true} (a bounded replay of the {@link ReplayScope#fromArgs scope of its flags},
   * reading stored vectors), else {@link #LIVE}.
   */
  public static Replay fromArgs(JobArgs args) {
    return Boolean.parseBoolean(args.get("replay", "false"))
        ? of(ReplayScope.fromArgs(args))
        : LIVE;
  }
}
