package dev.faultline.jobs.llm;

import dev.faultline.classifier.llm.AnswerCache;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The newest answer of each (prompt version, model, item), for {@link AnswerStore#forItem}: only
 * entries that name their item are kept. An answer offered with a time at least as new as the one
 * held replaces it (so, at equal times, the one offered last). An entry that does not say for which
 * state of its issue it was made ({@link AnswerCache.Entry#asOf()} null: imported from an export
 * before custom_ids carried it) is taken as of the time it was offered, the latest its export can
 * have been. Thread-safe.
 */
final class ItemIndex {
  private record Stamped(AnswerCache.Entry entry, long time) {}

  private final Map<String, Stamped> newest = new ConcurrentHashMap<>();

  private static String slot(String promptVersion, String model, String item) {
    return promptVersion + "\n" + model + "\n" + item;
  }

  /** Takes an entry received at {@code time} (epoch milliseconds); ignores one without an item. */
  void offer(AnswerCache.Entry e, long time) {
    if (e.item() == null) {
      return;
    }
    newest.merge(
        slot(e.promptVersion(), e.model(), e.item()),
        new Stamped(e, time),
        (held, offered) -> offered.time() >= held.time() ? offered : held);
  }

  /**
   * The newest answer of an item under a prompt version and a model, with the time of the state it
   * answers (when it names none, the time it was offered).
   */
  Optional<AnswerCache.Entry> get(String promptVersion, String model, String item) {
    if (promptVersion == null || model == null || item == null) {
      return Optional.empty();
    }
    Stamped s = newest.get(slot(promptVersion, model, item));
    if (s == null) {
      return Optional.empty();
    }
    AnswerCache.Entry e = s.entry();
    return Optional.of(e.asOf() != null ? e : e.withAsOf(Instant.ofEpochMilli(s.time())));
  }

  /**
   * Forgets the answers stored under a cache key (a tombstone): their items have no item answer
   * until another arrives (an older answer of the item is not restored).
   */
  void remove(String key) {
    newest.values().removeIf(s -> s.entry().key().equals(key));
  }

  /** Items indexed. */
  int size() {
    return newest.size();
  }
}
