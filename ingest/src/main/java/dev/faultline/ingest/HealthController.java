package dev.faultline.ingest;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /health}: 200 {@code {"status":"UP",…}} when every check passes, else 503 with each
 * problem. A check that throws counts as failing.
 */
final class HealthController {
  private final List<HealthCheck> checks;
  private final ObjectMapper mapper = new ObjectMapper();

  HealthController(List<HealthCheck> checks) {
    this.checks = List.copyOf(checks);
  }

  void health(Context ctx) throws IOException {
    Map<String, Object> results = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (HealthCheck check : checks) {
      Map<String, Object> result = new LinkedHashMap<>();
      Optional<String> problem;
      try {
        problem = check.problem();
        result.putAll(check.details());
      } catch (RuntimeException e) {
        problem = Optional.of("the check itself failed: " + e);
      }
      result.put("status", problem.isPresent() ? "DOWN" : "UP");
      problem.ifPresent(
          p -> {
            result.put("problem", p);
            problems.add(check.name() + ": " + p);
          });
      results.put(check.name(), result);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", problems.isEmpty() ? "UP" : "DOWN");
    if (!problems.isEmpty()) {
      body.put("problems", problems);
    }
    body.put("checks", results);
    ctx.status(problems.isEmpty() ? 200 : 503)
        .contentType("application/json")
        .result(mapper.writeValueAsBytes(body));
  }
}
