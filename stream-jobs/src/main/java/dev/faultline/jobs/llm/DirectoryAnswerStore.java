package dev.faultline.jobs.llm;

import dev.faultline.classifier.llm.AnswerCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CLI's answer cache directory ({@link AnswerCache}) as the stream's store: for a pipeline on
 * one machine, or tests. Not for a cluster (each task manager would see its own disk).
 */
public final class DirectoryAnswerStore implements AnswerStore {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryAnswerStore.class);

  private final AnswerCache cache;

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
  public void put(AnswerCache.Entry entry) {
    try {
      cache.put(entry);
    } catch (IOException e) {
      LOG.warn("cannot store the answer {} in {}: {}", entry.key(), cache.dir(), e.toString());
    }
  }

  @Override
  public long size() {
    try (Stream<Path> files = Files.walk(cache.dir())) {
      return files.filter(p -> p.toString().endsWith(".json")).count();
    } catch (IOException e) {
      return -1;
    }
  }

  @Override
  public void close() {}
}
