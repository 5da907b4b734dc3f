package dev.faultline.bench;

import dev.faultline.bench.BenchCommand.Progress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A child process of the bench (the build, a stage's benchmark JVM): its output to a log, a
 * heartbeat with the log's last line while it runs, and a stop of it and of the processes it
 * started, on its timeout or when the bench itself is stopped.
 */
final class ChildProcess {
  private static final Duration HEARTBEAT = Duration.ofSeconds(30);
  private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;]*m");

  private ChildProcess() {}

  /**
   * Runs {@code command} with output to {@code log}; prints a heartbeat with the log's last line
   * while it runs, and kills it (and the processes it started) after {@code timeout}. Returns its
   * exit code, or -1 on timeout.
   */
  static int run(
      List<String> command, Path dir, Path log, Duration timeout, Progress progress, String what)
      throws IOException, InterruptedException {
    Files.createDirectories(log.getParent());
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    Instant deadline = Instant.now().plus(timeout);
    Instant started = Instant.now();
    // Ctrl-C on the bench must not leave a benchmark (or the local stack it started) running.
    Thread stopOnExit = new Thread(() -> stop(p), "bench-stop-child");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
    try {
      while (!p.waitFor(HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS)) {
        if (Instant.now().isAfter(deadline)) {
          progress.line("%s: no result after %s; stopping it", what, Progress.format(timeout));
          return -1;
        }
        progress.line(
            "%s: running for %s ... %s",
            what, Progress.format(Duration.between(started, Instant.now())), lastLine(log));
      }
      return p.exitValue();
    } finally {
      stop(p);
      try {
        Runtime.getRuntime().removeShutdownHook(stopOnExit);
      } catch (IllegalStateException e) {
        // Already shutting down: the hook is running or ran.
      }
    }
  }

  /**
   * Stops {@code p} and the processes it started (the pipeline benchmark starts a local stack of
   * its own).
   */
  private static void stop(Process p) {
    if (!p.isAlive()) {
      return;
    }
    List<ProcessHandle> children = p.descendants().toList();
    children.forEach(ProcessHandle::destroy);
    p.destroy();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        children.forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      children.forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  private static String lastLine(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      for (int i = lines.size() - 1; i >= 0; i--) {
        String line = ANSI.matcher(lines.get(i)).replaceAll("").strip();
        if (!line.isEmpty()) {
          return line.length() > 100 ? line.substring(0, 100) + "…" : line;
        }
      }
    } catch (IOException | UncheckedIOException e) {
      // A log that is not readable (yet, or mid-write in another charset) has no last line to show.
    }
    return "";
  }
}
