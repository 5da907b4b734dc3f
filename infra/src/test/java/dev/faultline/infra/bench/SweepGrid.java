package dev.faultline.infra.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The settings of {@code similar-issues} the benchmark's {@code sweep} tries. */
final class SweepGrid {
  private SweepGrid() {}

  static List<Map<String, String>> settings(String grid) {
    List<Map<String, String>> out = new ArrayList<>();
    switch (grid) {
      case "text" -> {
        for (String title : List.of("1", "2", "3")) {
          for (String error : List.of("1", "2", "3")) {
            for (String body : List.of("50", "150", "400")) {
              out.add(
                  map(
                      "vectorWeight",
                      "0",
                      "titleBoost",
                      title,
                      "errorBoost",
                      error,
                      "bodyTerms",
                      body));
            }
          }
        }
      }
      case "fusion" -> {
        for (String k : List.of("5", "20", "60")) {
          for (String tw : List.of("0.5", "1", "2")) {
            out.add(map("rrfK", k, "textWeight", tw, "vectorWeight", "1"));
          }
        }
      }
      case "boosts" -> {
        for (String f : List.of("0", "0.002", "0.005")) {
          for (String s : List.of("0", "0.002", "0.005")) {
            for (String st : List.of("0", "0.002")) {
              out.add(map("frameworkBoost", f, "symptomBoost", s, "stageBoost", st));
            }
          }
        }
      }
      default -> out.addAll(spec(grid));
    }
    return out;
  }

  /**
   * Every combination of a spec's values: {@code rrfK=1,5;textWeight=0.5,1} gives four settings.
   */
  static List<Map<String, String>> spec(String spec) {
    List<Map<String, String>> out = new ArrayList<>();
    out.add(new LinkedHashMap<>());
    for (String part : spec.split(";")) {
      String[] kv = part.split("=", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException(
            "grid " + spec + ": use text, fusion, boosts or name=v1,v2;name=v1,...");
      }
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> m : out) {
        for (String v : kv[1].split(",")) {
          Map<String, String> copy = new LinkedHashMap<>(m);
          copy.put(kv[0].strip(), v.strip());
          next.add(copy);
        }
      }
      out = next;
    }
    return out;
  }

  private static Map<String, String> map(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }
}
