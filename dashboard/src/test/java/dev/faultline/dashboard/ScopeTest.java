package dev.faultline.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScopeTest {
  private static final List<Scope.Release> DEEPSPEED =
      List.of(
          new Scope.Release("DeepSpeed@0.15.0", "DeepSpeed", Instant.parse("2024-05-01T00:00:00Z")),
          new Scope.Release("DeepSpeed@0.14.0", "DeepSpeed", Instant.parse("2024-01-10T00:00:00Z")),
          new Scope.Release(
              "DeepSpeed@0.14.1", "DeepSpeed", Instant.parse("2024-03-01T00:00:00Z")));

  private static Scope resolve(String... nameValues) {
    Map<String, List<String>> values = new LinkedHashMap<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      values.put(nameValues[i], List.of(nameValues[i + 1]));
    }
    return Scope.resolve(
        new ApiParams(values, new HashSet<>(Scope.PARAMETERS)),
        f -> f.equals("DeepSpeed") ? DEEPSPEED : List.of());
  }

  @Test
  void releaseNarrowsToTheTimeItWasItsFrameworksNewest() {
    Scope s = resolve("release", "DeepSpeed@0.14.1");
    assertEquals("DeepSpeed", s.framework());
    assertEquals(Instant.parse("2024-03-01T00:00:00Z"), s.from());
    assertEquals(Instant.parse("2024-05-01T00:00:00Z"), s.to());
  }

  @Test
  void newestReleaseRunsUpToNowAndIntersectsAGivenRange() {
    Scope s = resolve("release", "DeepSpeed@0.15.0", "from", "2024-06-01");
    assertEquals(Instant.parse("2024-06-01T00:00:00Z"), s.from());
    assertNull(s.to());
  }

  @Test
  void rejectsAReleaseOfAnotherFrameworkOrOneNotInTheGraph() {
    assertEquals(
        "release",
        assertThrows(
                ApiError.class,
                () -> resolve("framework", "PyTorch", "release", "DeepSpeed@0.14.1"))
            .parameter());
    assertEquals(
        "release",
        assertThrows(ApiError.class, () -> resolve("release", "DeepSpeed@9.9")).parameter());
  }

  @Test
  void rejectsARangeThatEndsBeforeItStarts() {
    assertEquals(
        "to",
        assertThrows(ApiError.class, () -> resolve("from", "2024-05-01", "to", "2024-01-01"))
            .parameter());
  }

  @Test
  void passesOnlyGivenFiltersToTheQueries() {
    assertEquals(Map.of("framework", "PyTorch"), resolve("framework", "PyTorch").queryParameters());
  }
}
