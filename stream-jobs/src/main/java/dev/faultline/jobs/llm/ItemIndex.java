package dev.faultline.jobs.llm;

import dev.faultline.classifier.llm.AnswerCache;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The newest answer of each (prompt version, model, item), for {@link AnswerStore#forItem}: only
 * entries that name their item are kept. An answer offered with a time at least as new as the one
 * held replaces it (so, at equal times, the one offered last). Thread-safe.
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

  /** The newest answer of an item under a prompt version and a model. */
  Optional<AnswerCache.Entry> get(String promptVersion, String model, String item) {
    if (promptVersion == null || model == null || item == null) {
      return Optional.empty();
    }
    Stamped s = newest.get(slot(promptVersion, model, item));
    return s == null ? Optional.empty() : Optional.of(s.entry());
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
