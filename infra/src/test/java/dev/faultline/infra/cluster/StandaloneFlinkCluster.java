package dev.faultline.infra.cluster;

import dev.faultline.embedded.testing.Poll;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Flink standalone session cluster on loopback: one JobManager and {@code taskManagers}
 * TaskManagers, each a separate JVM started the way Flink's {@code jobmanager.sh}/{@code
 * taskmanager.sh} start them (memory settings computed by Flink's own {@code BashJavaUtils}, {@code
 * --configDir} plus dynamic properties), from a lib directory that holds Flink and log4j only.
 * Every process it starts it stops in {@link #close()}, and in a shutdown hook if the test JVM dies
 * first.
 */
final class StandaloneFlinkCluster implements AutoCloseable {
  private static final String JOBMANAGER =
      "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
  private static final String TASKMANAGER =
      "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
  private static final String BASH_JAVA_UTILS = "org.apache.flink.runtime.util.bash.BashJavaUtils";
  private static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";

  private final Path home;
  private final Path lib;
  private final List<String> jvmOpens;
  private final int restPort;
  private final int rpcPort;
  private final List<Process> processes = new ArrayList<>();
  private final List<Path> logs = new ArrayList<>();
  private final Thread killer = new Thread(this::destroyAll, "flink-cluster-killer");

  private StandaloneFlinkCluster(
      Path home, Path lib, List<String> jvmOpens, int restPort, int rpcPort) {
    this.home = home;
    this.lib = lib;
    this.jvmOpens = jvmOpens;
    this.restPort = restPort;
    this.rpcPort = rpcPort;
  }

  /**
   * Writes the config, starts the JobManager and the TaskManagers, and waits until all slots are
   * registered.
   */
  static StandaloneFlinkCluster start(
      Path home, Path lib, String jvmOpens, int taskManagers, int slotsPerTaskManager)
      throws Exception {
    if (!Files.isDirectory(lib)
        || Files.list(lib)
            .noneMatch(p -> p.getFileName().toString().startsWith("flink-runtime-"))) {
      throw new IllegalStateException(
          "No Flink lib directory at "
              + lib
              + ": run through Maven (mvn -pl infra verify), whose pre-integration-test phase fills it");
    }
    Files.createDirectories(home);
    int[] ports =
        dev.faultline.embedded.FreePorts.pick(2); // different ports: the JobManager binds both
    StandaloneFlinkCluster cluster =
        new StandaloneFlinkCluster(
            home.toAbsolutePath(),
            lib.toAbsolutePath(),
            Arrays.stream(jvmOpens.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList(),
            ports[0],
            ports[1]);
    Runtime.getRuntime().addShutdownHook(cluster.killer);
    try {
      cluster.writeConfig(slotsPerTaskManager);
      cluster.launch("jobmanager", JOBMANAGER, cluster.resourceParams("GET_JM_RESOURCE_PARAMS"));
      List<String> tmParams = cluster.resourceParams("GET_TM_RESOURCE_PARAMS");
      for (int i = 1; i <= taskManagers; i++) {
        cluster.launch("taskmanager-" + i, TASKMANAGER, tmParams);
      }
      cluster.awaitSlots(taskManagers, taskManagers * slotsPerTaskManager, Duration.ofSeconds(90));
      return cluster;
    } catch (Exception | Error e) {
      cluster.printLogs(System.err);
      cluster.close();
      throw e;
    }
  }

  URI restUri() {
    return URI.create("http://127.0.0.1:" + restPort);
  }

  String jobManagerAddress() {
    return "127.0.0.1:" + restPort;
  }

  Path savepointDir() {
    return home.resolve("savepoints");
  }

  private Path confDir() {
    return home.resolve("conf");
  }

  private void writeConfig(int slots) throws IOException {
    Files.createDirectories(confDir());
    Path tmp = Files.createDirectories(home.resolve("tmp"));
    Path logDir = Files.createDirectories(home.resolve("log"));
    String config =
        String.join(
            "\n",
            // Loopback only: RPC, blob server, REST, TaskManager data port.
            "jobmanager.rpc.address: 127.0.0.1",
            "jobmanager.rpc.port: " + rpcPort,
            "jobmanager.bind-host: 127.0.0.1",
            "rest.address: 127.0.0.1",
            "rest.bind-address: 127.0.0.1",
            "rest.port: " + restPort,
            "taskmanager.host: 127.0.0.1",
            "taskmanager.bind-host: 127.0.0.1",
            "taskmanager.numberOfTaskSlots: " + slots,
            // Small, for a 2-core test machine; managed memory is for RocksDB/batch, unused by
            // these jobs.
            "jobmanager.memory.process.size: 1024m",
            "taskmanager.memory.process.size: 1280m",
            "taskmanager.memory.managed.size: 64m",
            "parallelism.default: 2",
            "execution.checkpointing.dir: " + home.resolve("checkpoints").toUri(),
            "execution.checkpointing.savepoint-dir: " + savepointDir().toUri(),
            "io.tmp.dirs: " + tmp,
            "web.upload.dir: " + Files.createDirectories(home.resolve("web-upload")),
            "web.submit.enable: true",
            "web.cancel.enable: true",
            // Fail fast in a test instead of restarting forever.
            "restart-strategy.type: fixed-delay",
            "restart-strategy.fixed-delay.attempts: 3",
            "restart-strategy.fixed-delay.delay: 1 s",
            "env.log.dir: " + logDir,
            "");
    Files.writeString(confDir().resolve("config.yaml"), config);
    Files.writeString(
        confDir().resolve("log4j.properties"),
        String.join(
            "\n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.console.ref = ConsoleAppender",
            "appender.console.name = ConsoleAppender",
            "appender.console.type = CONSOLE",
            "appender.console.layout.type = PatternLayout",
            "appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-40c{1.} - %m%n",
            "logger.kafka.name = org.apache.kafka",
            "logger.kafka.level = WARN",
            "logger.neo4j.name = org.neo4j",
            "logger.neo4j.level = WARN",
            ""));
  }

  /** The JVM options and dynamic properties Flink's scripts would compute from the config. */
  private List<String> resourceParams(String command) throws IOException, InterruptedException {
    Path out = home.resolve("log").resolve(command.toLowerCase() + ".out");
    Process p =
        new ProcessBuilder(
                java(),
                "-cp",
                lib + "/*",
                BASH_JAVA_UTILS,
                command,
                "--configDir",
                confDir().toString())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(command + " did not finish");
    }
    List<String> results =
        Files.readAllLines(out).stream()
            .filter(l -> l.startsWith(RESULT_PREFIX))
            .map(l -> l.substring(RESULT_PREFIX.length()))
            .toList();
    if (p.exitValue() != 0 || results.size() < 2) {
      throw new IllegalStateException(command + " failed: " + Files.readString(out));
    }
    List<String> params = new ArrayList<>();
    params.add("JVM");
    params.addAll(Arrays.asList(results.get(0).trim().split("\\s+")));
    params.add("DYNAMIC");
    params.addAll(Arrays.asList(results.get(1).trim().split("\\s+")));
    return params;
  }

  private void launch(String name, String mainClass, List<String> params) throws IOException {
    int split = params.indexOf("DYNAMIC");
    List<String> cmd = new ArrayList<>();
    cmd.add(java());
    cmd.addAll(params.subList(1, split));
    cmd.addAll(jvmOpens);
    cmd.add("-XX:+UseParallelGC");
    cmd.add("-Dlog4j.configurationFile=" + confDir().resolve("log4j.properties").toUri());
    cmd.add("-Dlog.file=" + home.resolve("log").resolve(name + ".log"));
    cmd.add("-Djava.io.tmpdir=" + home.resolve("tmp"));
    cmd.add("-cp");
    cmd.add(lib + "/*");
    cmd.add(mainClass);
    cmd.add("--configDir");
    cmd.add(confDir().toString());
    cmd.addAll(params.subList(split + 1, params.size()));
    Path log = home.resolve("log").resolve(name + ".out");
    ProcessBuilder builder =
        new ProcessBuilder(cmd)
            .directory(Files.createDirectories(home.resolve("work").resolve(name)).toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Process p = builder.start();
    synchronized (processes) {
      processes.add(p);
      logs.add(log);
    }
  }

  private void awaitSlots(int taskManagers, int slots, Duration timeout) throws Exception {
    FlinkRestClient rest = FlinkRestClient.forJobManager(jobManagerAddress());
    Poll.until(
        timeout,
        () -> {
          assertAllAlive();
          try {
            return rest.overview();
          } catch (IOException notYet) {
            return null;
          }
        },
        o ->
            o != null
                && o.path("taskmanagers").asInt() == taskManagers
                && o.path("slots-total").asInt() == slots,
        o ->
            "a Flink cluster of "
                + taskManagers
                + " task managers, "
                + slots
                + " slots; the REST API says "
                + (o == null ? "nothing yet" : o.toString()));
  }

  /** Fails with the log of any cluster process that exited. */
  void assertAllAlive() {
    synchronized (processes) {
      for (int i = 0; i < processes.size(); i++) {
        if (!processes.get(i).isAlive()) {
          throw new IllegalStateException(
              logs.get(i).getFileName()
                  + " exited with "
                  + processes.get(i).exitValue()
                  + " (logs printed above/below)");
        }
      }
    }
  }

  void printLogs(PrintStream to) {
    synchronized (processes) {
      for (Path log : logs) {
        to.println("=============== " + log + " (last 200 lines) ===============");
        try {
          List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
          lines.subList(Math.max(0, lines.size() - 200), lines.size()).forEach(to::println);
        } catch (IOException e) {
          to.println("(unreadable: " + e + ")");
        }
      }
    }
  }

  /**
   * SIGTERM to every process (TaskManagers first), then waits; kills what is still there after 20
   * s.
   */
  @Override
  public void close() {
    destroyAll();
    try {
      Runtime.getRuntime().removeShutdownHook(killer);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or has run: nothing to remove
    }
  }

  private void destroyAll() {
    List<Process> reversed;
    synchronized (processes) {
      reversed = new ArrayList<>(processes);
    }
    java.util.Collections.reverse(reversed);
    reversed.forEach(Process::destroy);
    for (Process p : reversed) {
      try {
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
