package dev.faultline.graph;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Loads Cypher statements kept as {@code .cypher} resources beside this class. */
public final class CypherResources {
  private CypherResources() {}

  /** The whole text of {@code dev/faultline/graph/<path>}. */
  public static String load(String path) {
    String resource = "/dev/faultline/graph/" + path;
    try (InputStream in = CypherResources.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("Missing Cypher resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read " + resource, e);
    }
  }

  /** Statements of a file, split on {@code ;} at line ends; {@code //} comment lines dropped. */
  public static List<String> statements(String path) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : load(path).split("\n")) {
      String trimmed = line.strip();
      if (trimmed.startsWith("//") || trimmed.isEmpty()) {
        continue;
      }
      current.append(line).append('\n');
      if (trimmed.endsWith(";")) {
        String statement = current.toString().strip();
        statements.add(statement.substring(0, statement.length() - 1));
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      statements.add(current.toString().strip());
    }
    return statements;
  }
}
