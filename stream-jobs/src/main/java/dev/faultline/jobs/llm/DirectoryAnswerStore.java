package dev.faultline.jobs.llm;

import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.LlmCalibration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CLI's answer cache directory ({@link AnswerCache}) as the stream's store: for a pipeline on
 * one machine, or tests. Not for a cluster (each task manager would see its own disk). The item
 * index ({@link #forItem}) is read from the directory's files when first asked (newest by file
 * modification time) and kept as answers are put; files another process adds later are found by
 * their key, not by their item.
 */
public final class DirectoryAnswerStore implements AnswerStore {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryAnswerStore.class);

  private final AnswerCache cache;
  private volatile ItemIndex items;

  public DirectoryAnswerStore(AnswerCache cache) {
    this.cache = cache;
  }

  /** A factory for a directory (a string: paths are not serializable). */
  public static Factory at(String dir) {
    return () -> new DirectoryAnswerStore(new AnswerCache(Path.of(dir)));
  }

  @Override
  public Optional<AnswerCache.Entry> get(String key) {
    return cache.get(key);
  }

  @Override
  public Optional<AnswerCache.Entry> forItem(String promptVersion, String model, String item) {
    return items().get(promptVersion, model, item);
  }

  private ItemIndex items() {
    ItemIndex i = items;
    if (i != null) {
      return i;
    }
    synchronized (this) {
      if (items == null) {
        ItemIndex read = new ItemIndex();
        try (Stream<Path> files = Files.walk(cache.dir(), 2)) {
          files
              .filter(p -> p.getFileName().toString().endsWith(".json"))
              .forEach(
                  p -> {
                    String key = p.getFileName().toString().replace(".json", "");
                    cache.get(key).ifPresent(e -> read.offer(e, modified(p)));
                  });
        } catch (IOException | java.io.UncheckedIOException e) {
          LOG.warn("cannot read the answers of {}: {}", cache.dir(), e.toString());
        }
        items = read;
      }
      return items;
    }
  }

  private static long modified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }

  /** The calibration in the directory's {@code calibrations/} (read when asked). */
  @Override
  public Optional<LlmCalibration> calibration(String model, String promptVersion) {
    return cache.calibration(model, promptVersion);
  }

  @Override
  public void put(AnswerCache.Entry entry) {
    try {
      cache.put(entry);
    } catch (IOException e) {
      LOG.warn("cannot store the answer {} in {}: {}", entry.key(), cache.dir(), e.toString());
    }
    synchronized (this) {
      if (items != null) {
        items.offer(entry, System.currentTimeMillis());
      }
    }
  }

  @Override
  public long size() {
    try (Stream<Path> files = Files.walk(cache.dir())) {
      return files
          .filter(p -> AnswerCache.isKey(p.getFileName().toString().replace(".json", "")))
          .count();
    } catch (IOException e) {
      return -1;
    }
  }

  @Override
  public void close() {}
}
