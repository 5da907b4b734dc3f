package dev.faultline.classifier.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one reading loop of the batch commands' JSON-lines files ({@code classify}, {@code eval},
 * {@code llm}, {@code train}): UTF-8, line by line (a file of any size), blank lines skipped, and
 * every error naming the file and the line.
 *
 * <pre>
 * try (JsonLines lines = JsonLines.open(file)) {
 *   JsonNode rec;
 *   while ((rec = lines.next(json)) != null) { ... }
 * }
 * </pre>
 */
public final class JsonLines implements Closeable {

  /** A line that is not JSON; the message names the file and the line. */
  public static final class NotJson extends IOException {
    NotJson(Path file, int line, IOException cause) {
      super(file + " line " + line + " is not JSON: " + cause.getMessage(), cause);
    }
  }

  private final Path file;
  private final BufferedReader reader;
  private int lineNumber;

  private JsonLines(Path file, BufferedReader reader) {
    this.file = file;
    this.reader = reader;
  }

  /** Opens {@code file}; a missing file throws {@link java.nio.file.NoSuchFileException}. */
  public static JsonLines open(Path file) throws IOException {
    return new JsonLines(file, Files.newBufferedReader(file, StandardCharsets.UTF_8));
  }

  /** Every record of {@code file}, in order. */
  public static List<JsonNode> read(Path file, ObjectMapper json) throws IOException {
    List<JsonNode> records = new ArrayList<>();
    try (JsonLines lines = open(file)) {
      JsonNode rec;
      while ((rec = lines.next(json)) != null) {
        records.add(rec);
      }
    }
    return records;
  }

  /** The next non-blank line as it is, or null at the end of the file. */
  public String nextLine() throws IOException {
    String line;
    while ((line = reader.readLine()) != null) {
      lineNumber++;
      if (!line.isBlank()) {
        return line;
      }
    }
    return null;
  }

  /** The next non-blank line parsed, or null at the end of the file. */
  public JsonNode next(ObjectMapper json) throws IOException {
    String line = nextLine();
    if (line == null) {
      return null;
    }
    try {
      return json.readTree(line);
    } catch (IOException e) {
      throw new NotJson(file, lineNumber, e);
    }
  }

  /** The 1-based number of the line last returned. */
  public int lineNumber() {
    return lineNumber;
  }

  /** Where the line last returned is: {@code FILE:LINE}. */
  public String where() {
    return file + ":" + lineNumber;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
