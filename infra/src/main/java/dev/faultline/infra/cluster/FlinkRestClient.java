package dev.faultline.infra.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The parts of Flink's REST API (the JobManager's {@code rest.port}) that deploy and upgrade jobs:
 * upload a jar, run it, savepoint, stop with a savepoint, cancel, list. Plain HTTP and JSON, so the
 * client needs no Flink classes and works against any Flink 1.x/2.x cluster with web submission
 * enabled.
 */
public final class FlinkRestClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration POLL = Duration.ofMillis(250);

  private final URI base;
  private final HttpClient http;
  private final Duration requestTimeout;

  /**
   * @param base the REST endpoint, e.g. {@code http://127.0.0.1:8081}
   * @param http the HTTP client to use
   * @param requestTimeout how long one request may take (uploads of large jars included)
   */
  public FlinkRestClient(URI base, HttpClient http, Duration requestTimeout) {
    this.base = URI.create(base.toString().endsWith("/") ? base.toString() : base + "/");
    this.http = http;
    this.requestTimeout = requestTimeout;
  }

  /** A client for {@code HOST:PORT} or a full {@code http(s)://} URL. */
  public static FlinkRestClient forJobManager(String jobManager) {
    if (jobManager == null || jobManager.isBlank()) {
      throw new IllegalArgumentException(
          "No JobManager: pass --jobmanager HOST:PORT (the REST port, 8081 by default)");
    }
    String url = jobManager.contains("://") ? jobManager : "http://" + jobManager;
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    return new FlinkRestClient(URI.create(url), http, Duration.ofMinutes(2));
  }

  /** A job as {@code /jobs/overview} lists it. */
  public record JobSummary(String id, String name, String state) {}

  /**
   * What {@code POST /jars/:id/run} takes. {@code savepointPath} may be null; {@code parallelism} 0
   * = default.
   */
  public record RunRequest(
      String entryClass,
      List<String> programArgs,
      int parallelism,
      String savepointPath,
      boolean allowNonRestoredState) {
    public RunRequest {
      programArgs = List.copyOf(programArgs);
    }
  }

  /** {@code GET /overview}: the cluster's TaskManagers and slots. */
  public JsonNode overview() throws IOException {
    return get("overview");
  }

  /** Uploads a job jar ({@code POST /jars/upload}); returns the jar id the cluster gave it. */
  public String uploadJar(Path jar) throws IOException {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalArgumentException(
          "Job jar "
              + jar
              + " does not exist: build it with 'mvn -pl jobs-dist -am package' or pass --jar PATH");
    }
    String boundary = "faultline-" + UUID.randomUUID();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    String head =
        "--"
            + boundary
            + "\r\n"
            + "Content-Disposition: form-data; name=\"jarfile\"; filename=\""
            + jar.getFileName()
            + "\"\r\n"
            + "Content-Type: application/x-java-archive\r\n\r\n";
    body.write(head.getBytes(StandardCharsets.UTF_8));
    body.write(Files.readAllBytes(jar));
    body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve("jars/upload"))
            .timeout(requestTimeout)
            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
            .build();
    JsonNode answer = send(request);
    String filename = answer.path("filename").asText("");
    if (!"success".equals(answer.path("status").asText()) || filename.isEmpty()) {
      throw new IOException("Jar upload to " + base + " failed: " + answer);
    }
    // The jar id is the uploaded file's name (".../flink-web-upload/<uuid>_<name>.jar").
    return Path.of(filename).getFileName().toString();
  }

  /** Runs an uploaded jar ({@code POST /jars/:id/run}); returns the job id. */
  public String run(String jarId, RunRequest run) throws IOException {
    ObjectNode body = JSON.createObjectNode();
    body.put("entryClass", run.entryClass());
    body.putPOJO("programArgsList", run.programArgs());
    if (run.parallelism() > 0) {
      body.put("parallelism", run.parallelism());
    }
    if (run.savepointPath() != null) {
      body.put("savepointPath", run.savepointPath());
      body.put("allowNonRestoredState", run.allowNonRestoredState());
    }
    JsonNode answer = post("jars/" + jarId + "/run", body);
    String jobId = answer.path("jobid").asText("");
    if (jobId.isEmpty()) {
      throw new IOException("Running " + run.entryClass() + " gave no job id: " + answer);
    }
    return jobId;
  }

  /** Deletes an uploaded jar ({@code DELETE /jars/:id}). */
  public void deleteJar(String jarId) throws IOException {
    send(
        HttpRequest.newBuilder(base.resolve("jars/" + jarId))
            .timeout(requestTimeout)
            .DELETE()
            .build());
  }

  /** {@code GET /jobs/overview}. */
  public List<JobSummary> jobs() throws IOException {
    List<JobSummary> jobs = new ArrayList<>();
    for (JsonNode j : get("jobs/overview").path("jobs")) {
      jobs.add(
          new JobSummary(
              j.path("jid").asText(), j.path("name").asText(), j.path("state").asText()));
    }
    return jobs;
  }

  /**
   * The running (or restarting, …) job of that name, if there is exactly one not in a terminal
   * state.
   */
  public Optional<JobSummary> activeJob(String name) throws IOException {
    List<JobSummary> active =
        jobs().stream()
            .filter(j -> j.name().equals(name) && !TERMINAL.contains(j.state()))
            .toList();
    if (active.size() > 1) {
      throw new IllegalStateException(
          active.size() + " active jobs are named " + name + ": pass --job-id");
    }
    return active.stream().findFirst();
  }

  private static final List<String> TERMINAL = List.of("FINISHED", "CANCELED", "FAILED");

  /** {@code GET /jobs/:id}: the job's state. */
  public String jobState(String jobId) throws IOException {
    return get("jobs/" + jobId).path("state").asText();
  }

  /** {@code GET /jobs/:id/exceptions}: the root exception of a failed job ("" if none). */
  public String rootException(String jobId) throws IOException {
    return get("jobs/" + jobId + "/exceptions").path("root-exception").asText("");
  }

  /**
   * {@code GET /jobs/:id/checkpoints}: counts, the latest completed checkpoint, and what the job
   * was restored from.
   */
  public JsonNode checkpoints(String jobId) throws IOException {
    return get("jobs/" + jobId + "/checkpoints");
  }

  /**
   * Waits until the job and every task of it run (sources read, sinks write), or fails with the
   * job's state.
   */
  public void awaitRunning(String jobId, Duration timeout)
      throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    String last = "";
    while (Instant.now().isBefore(deadline)) {
      JsonNode job = get("jobs/" + jobId);
      last = job.path("state").asText();
      if (TERMINAL.contains(last)) {
        throw new IllegalStateException(
            "Job "
                + jobId
                + " is "
                + last
                + ": "
                + get("jobs/" + jobId + "/exceptions").path("root-exception").asText(""));
      }
      boolean allTasksRunning = job.path("vertices").size() > 0;
      for (JsonNode v : job.path("vertices")) {
        allTasksRunning &= "RUNNING".equals(v.path("status").asText());
      }
      if ("RUNNING".equals(last) && allTasksRunning) {
        return;
      }
      Thread.sleep(POLL.toMillis());
    }
    throw new IllegalStateException(
        "Job " + jobId + " not running with all tasks after " + timeout + " (state " + last + ")");
  }

  /** Waits until the job reaches a terminal state; returns it. */
  public String awaitTerminal(String jobId, Duration timeout)
      throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    String state = "";
    while (Instant.now().isBefore(deadline)) {
      state = jobState(jobId);
      if (TERMINAL.contains(state)) {
        return state;
      }
      Thread.sleep(POLL.toMillis());
    }
    throw new IllegalStateException("Job " + jobId + " still " + state + " after " + timeout);
  }

  /**
   * Triggers a savepoint ({@code POST /jobs/:id/savepoints}); returns the trigger id. {@code dir}
   * null = cluster default.
   */
  public String triggerSavepoint(String jobId, String dir, boolean cancelJob) throws IOException {
    ObjectNode body = JSON.createObjectNode();
    if (dir != null) {
      body.put("target-directory", dir);
    }
    body.put("cancel-job", cancelJob);
    return requestId(post("jobs/" + jobId + "/savepoints", body));
  }

  /**
   * Stops the job with a final savepoint ({@code POST /jobs/:id/stop}): sources stop, the last
   * checkpoint's side effects are committed, the job finishes. The way to upgrade without
   * reprocessing anything.
   */
  public String stopWithSavepoint(String jobId, String dir) throws IOException {
    ObjectNode body = JSON.createObjectNode();
    if (dir != null) {
      body.put("targetDirectory", dir);
    }
    body.put("drain", false);
    return requestId(post("jobs/" + jobId + "/stop", body));
  }

  /**
   * Waits for a savepoint triggered by {@link #triggerSavepoint} or {@link #stopWithSavepoint};
   * returns its path.
   */
  public String awaitSavepoint(String jobId, String triggerId, Duration timeout)
      throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      JsonNode answer = get("jobs/" + jobId + "/savepoints/" + triggerId);
      if ("COMPLETED".equals(answer.path("status").path("id").asText())) {
        JsonNode op = answer.path("operation");
        if (op.hasNonNull("location")) {
          return op.path("location").asText();
        }
        throw new IOException(
            "Savepoint of job "
                + jobId
                + " failed: "
                + op.path("failure-cause").path("stack-trace").asText(op.toString()));
      }
      Thread.sleep(POLL.toMillis());
    }
    throw new IllegalStateException(
        "Savepoint " + triggerId + " of job " + jobId + " not done after " + timeout);
  }

  /** Cancels the job ({@code PATCH /jobs/:id?mode=cancel}); returns at once. */
  public void cancel(String jobId) throws IOException {
    send(
        HttpRequest.newBuilder(base.resolve("jobs/" + jobId + "?mode=cancel"))
            .timeout(requestTimeout)
            .method("PATCH", HttpRequest.BodyPublishers.noBody())
            .build());
  }

  private static String requestId(JsonNode answer) throws IOException {
    String id = answer.path("request-id").asText("");
    if (id.isEmpty()) {
      throw new IOException("No request id in " + answer);
    }
    return id;
  }

  private JsonNode get(String path) throws IOException {
    return send(HttpRequest.newBuilder(base.resolve(path)).timeout(requestTimeout).GET().build());
  }

  private JsonNode post(String path, JsonNode body) throws IOException {
    return send(
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(requestTimeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
            .build());
  }

  private JsonNode send(HttpRequest request) throws IOException {
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted: " + request.method() + " " + request.uri(), e);
    } catch (java.net.ConnectException e) {
      throw new IOException(
          "No Flink REST endpoint at "
              + base
              + " (is the JobManager up, and is this its rest.port?)",
          e);
    }
    String text = response.body() == null ? "" : response.body();
    JsonNode json = text.isBlank() ? JSON.createObjectNode() : JSON.readTree(text);
    if (response.statusCode() >= 300) {
      // Flink answers errors as {"errors": ["message", "stack trace"]}: the first line says what is
      // wrong.
      String error = json.path("errors").path(0).asText(text);
      throw new IOException(
          request.method()
              + " "
              + request.uri().getPath()
              + " → HTTP "
              + response.statusCode()
              + ": "
              + error);
    }
    return json;
  }
}
