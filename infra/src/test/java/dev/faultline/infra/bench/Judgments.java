package dev.faultline.infra.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Graded pairs (query issue, candidate issue, grade): 2 = the same problem, its fix would resolve
 * the query; 1 = related, helps diagnose; 0 = not useful. A tab-separated file of ids and grades
 * only, {@code #} lines are comments ({@code # grader: ...} names who graded).
 */
final class Judgments {
  private final Map<String, Map<String, Integer>> grades;
  private final String grader;

  private Judgments(Map<String, Map<String, Integer>> grades, String grader) {
    this.grades = grades;
    this.grader = grader;
  }

  static Judgments read(Path file) throws IOException {
    Map<String, Map<String, Integer>> grades = new LinkedHashMap<>();
    String grader = "unknown";
    if (!Files.exists(file)) {
      return new Judgments(grades, grader);
    }
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.startsWith("# grader:")) {
        grader = line.substring("# grader:".length()).strip();
      }
      if (line.isBlank() || line.startsWith("#") || line.startsWith("query\t")) {
        continue;
      }
      String[] f = line.split("\t");
      int g = Integer.parseInt(f[2].strip());
      if (g < 0 || g > 2) {
        throw new IllegalArgumentException(file + ": grade " + g + " is not 0, 1 or 2: " + line);
      }
      if (grades.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).put(f[1], g) != null) {
        throw new IllegalArgumentException(file + ": pair judged twice: " + line);
      }
    }
    return new Judgments(grades, grader);
  }

  /** The grade of a pair, null when not judged. */
  Integer grade(String query, String candidate) {
    return grades.getOrDefault(query, Map.of()).get(candidate);
  }

  /** Every judged grade of a query. */
  List<Integer> grades(String query) {
    return new ArrayList<>(grades.getOrDefault(query, Map.of()).values());
  }

  int size() {
    return grades.values().stream().mapToInt(Map::size).sum();
  }

  String grader() {
    return grader;
  }
}
