package dev.faultline.ingest.backfill;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * Where a REST backfill got to, in a small properties file replaced atomically after every
 * acknowledged page: the next page of the listing in progress, the listings done, and when the last
 * complete run started (the next run's default {@code since}).
 */
public final class Checkpoint {
  private final Path file;
  private final Properties props = new Properties();

  private Checkpoint(Path file) {
    this.file = file;
  }

  public static Checkpoint load(Path file) throws IOException {
    Checkpoint c = new Checkpoint(file);
    if (Files.exists(file)) {
      try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        c.props.load(in);
      }
    }
    return c;
  }

  public Optional<String> get(String key) {
    return Optional.ofNullable(props.getProperty(key));
  }

  public void put(String key, String value) {
    props.setProperty(key, value);
  }

  public void remove(String key) {
    props.remove(key);
  }

  /** Removes every key starting with {@code prefix}. */
  public void removePrefix(String prefix) {
    props.keySet().removeIf(k -> k.toString().startsWith(prefix));
  }

  public void save() throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      props.store(out, "faultline backfill checkpoint");
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  public Path file() {
    return file;
  }
}
