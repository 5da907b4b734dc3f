package dev.faultline.bench;

import dev.faultline.bench.BenchCommand.Options;
import dev.faultline.bench.BenchCommand.Progress;
import dev.faultline.bench.BenchCommand.Stage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The benchmarks' build: one Maven call compiles the chosen stages' modules (profile {@code bench})
 * and writes each module's test class path; the classes are copied out of the tree, so a build in
 * the tree while the benchmarks run cannot change what they run.
 */
final class BenchBuild {
  private BenchBuild() {}

  /** Compiles the chosen stages' modules and writes each stage's class path; the exit code. */
  static int build(Path root, Options options, Progress progress)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of(mvn(), "-B", "-q", "-f", root.resolve("pom.xml").toString()));
    if (options.offline()) {
      command.add("-o");
    }
    options.mavenRepoLocal().ifPresent(r -> command.add("-Dmaven.repo.local=" + r));
    command.addAll(
        List.of(
            "-pl",
            String.join(",", options.stages().stream().map(Stage::module).toList()),
            "-Pbench",
            "test-compile",
            "dependency:build-classpath",
            "-Dmdep.includeScope=test",
            "-Dmdep.outputFile=target/faultline-bench-test.cp"));
    Path log = options.out().resolve("logs").resolve("build.log");
    int code = ChildProcess.run(command, root, log, options.stageTimeout(), progress, "build");
    if (code != 0) {
      return code;
    }
    Path classes = options.out().resolve("classes");
    deleteRecursively(classes);
    Map<String, String> rewrite = new LinkedHashMap<>();
    for (Stage s : options.stages()) {
      Path target = root.resolve(s.module()).resolve("target");
      Path copy = classes.resolve(s.module());
      copyTree(target.resolve("classes"), copy.resolve("classes"));
      copyTree(target.resolve("test-classes"), copy.resolve("test-classes"));
      rewrite.put(target.resolve("classes").toString(), copy.resolve("classes").toString());
      rewrite.put(
          target.resolve("test-classes").toString(), copy.resolve("test-classes").toString());
    }
    // Modules built in the same reactor appear in each other's classpaths as target/classes: point
    // them at the copies.
    Files.createDirectories(options.out().resolve("cp"));
    for (Stage s : options.stages()) {
      String cp =
          Files.readString(root.resolve(s.module()).resolve("target/faultline-bench-test.cp"))
              .trim();
      List<String> entries = new ArrayList<>();
      entries.add(classes.resolve(s.module()).resolve("test-classes").toString());
      entries.add(classes.resolve(s.module()).resolve("classes").toString());
      for (String e : cp.split(java.io.File.pathSeparator)) {
        entries.add(rewrite.getOrDefault(e, e));
      }
      Files.writeString(
          options.out().resolve("cp").resolve(s.id + ".txt"),
          String.join(java.io.File.pathSeparator, entries));
    }
    progress.line("build: done; classes copied to %s", classes);
    return 0;
  }

  private static String mvn() {
    return Optional.ofNullable(System.getenv("MVN")).orElse("mvn");
  }

  private static void copyTree(Path from, Path to) throws IOException {
    if (!Files.isDirectory(from)) {
      throw new IOException(
          from
              + " does not exist: the Maven build did not compile it (or a concurrent build removed it)");
    }
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  /** Deletes {@code dir} and everything in it, if it exists. */
  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
