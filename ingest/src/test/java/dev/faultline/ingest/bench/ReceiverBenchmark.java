package dev.faultline.ingest.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.testing.NativeThreadCpu;
import dev.faultline.ingest.IngestConfig;
import dev.faultline.ingest.KafkaDeliveryPublisher;
import dev.faultline.ingest.SpoolingPublisher;
import dev.faultline.ingest.WebhookApp;
import dev.faultline.ingest.WebhookSignature;
import dev.faultline.ingest.backfill.BackfillCommand;
import dev.faultline.ingest.backfill.GhArchiveReader;
import dev.faultline.ingest.backfill.RepositoryFilter;
import dev.faultline.ingest.testing.Receivers;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.DeliverySource;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Receiver and backfill throughput, printed, not asserted. Not a test: run it by hand (see the
 * report or {@code ingest/README} note):
 *
 * <pre>
 * mvn -B -o -q -pl ingest test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp ingest/target/test-classes:ingest/target/classes:$(cat ingest/target/cp.txt) \
 *   dev.faultline.ingest.bench.ReceiverBenchmark [concurrency] [requests]
 * </pre>
 *
 * <p>System properties: {@code faultline.bench.out} (a file: also write the figures there as one
 * flat JSON object, for {@code faultline bench}), {@code faultline.bench.backfillEvents} (events
 * per generated GH Archive file, 200000), {@code bench.skipBackfill}, {@code bench.skipReceiver},
 * {@code faultline.bench.warmUpPasses} (20, at least), {@code faultline.bench.maxWarmUpPasses} (30:
 * more while the compiler threads use over 5% of the process's CPU), {@code faultline.bench.client}
 * ({@code lean}, the default, or {@code jdk}: the HTTP targets' load generator), {@code
 * faultline.bench.threads} (print each thread group's CPU and allocation per request, the JVM's own
 * threads' CPU by kind from {@code /proc/self/task}, and the collections), {@code
 * faultline.bench.marks} (print the measured rounds' bounds in JVM uptime), {@code
 * faultline.bench.targets} (some of {@code receiver,receiver_noop,bare_producer}), {@code
 * faultline.bench.producer.<property>} (a producer setting for both sides), {@code
 * faultline.bench.profile} and {@code faultline.bench.profileLib} (CPU profiles of the measured
 * parts, see {@link Profiler}).
 */
public final class ReceiverBenchmark {
  private static final String SECRET = "bench-secret";
  private static final int COMMAND_RUNS = 3;
  private static final int WARM_UP_PASSES = Integer.getInteger("faultline.bench.warmUpPasses", 20);
  private static final int MAX_WARM_UP_PASSES =
      Math.max(WARM_UP_PASSES, Integer.getInteger("faultline.bench.maxWarmUpPasses", 30));

  /** The compiler threads' share of the process's CPU in a pass below which the JIT is quiet. */
  private static final double QUIET_COMPILER_CPU_SHARE = 0.05;

  /**
   * The load generator of the HTTP targets: {@code lean} ({@link LeanHttpClient}, raw keep-alive
   * sockets) or {@code jdk} (the JDK's {@link HttpClient}).
   */
  private static final String CLIENT = System.getProperty("faultline.bench.client", "lean");

  public static void main(String[] args) throws Exception {
    int concurrency = args.length > 0 ? Integer.parseInt(args[0]) : 32;
    int requests = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    Path dir = Files.createTempDirectory("faultline-bench");
    System.out.printf(
        Locale.ROOT,
        "cores=%d, concurrency=%d, requests=%d%n",
        Runtime.getRuntime().availableProcessors(),
        concurrency,
        requests);
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0)) {
      rememberBrokerThreads();
      kafka.createTopics(3, List.of("bench-receiver", "bench-bare", "bench-backfill"));
      byte[] payload = payload12k();
      Map<String, Double> results = new TreeMap<>();
      if (!Boolean.getBoolean("bench.skipReceiver")) {
        receiverAgainstBaselines(kafka, dir, payload, concurrency, requests, results);
      }
      if (!Boolean.getBoolean("bench.skipBackfill")) {
        backfill(kafka, dir, results);
      }
      String out = System.getProperty("faultline.bench.out");
      if (out != null) {
        Files.writeString(
            Path.of(out),
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(results));
      }
    }
    // The HTTP client's executor threads would keep the JVM alive.
    System.exit(0);
  }

  /**
   * The receiver, its no-op ceiling and the bare producer, each warmed up once (untimed), then
   * measured in two rounds in opposite orders, so neither the JIT's warm-up nor a drift in the
   * machine's load favours one of them; each figure pools both rounds.
   */
  private static void receiverAgainstBaselines(
      EmbeddedKafka kafka,
      Path dir,
      byte[] payload,
      int concurrency,
      int requests,
      Map<String, Double> results)
      throws Exception {
    Map<String, Target> targets = new java.util.LinkedHashMap<>();
    try {
      targets.put("receiver", receiver(kafka, dir, payload, false, concurrency));
      targets.put("receiver_noop", receiver(kafka, dir, payload, true, concurrency));
      targets.put("bare_producer", bareProducer(kafka, payload));
      // -Dfaultline.bench.targets=receiver: only some of the three (e.g. one per JVM), for
      // profiles.
      String only = System.getProperty("faultline.bench.targets");
      if (only != null) {
        List<String> keep = List.of(only.split(","));
        for (String name : List.copyOf(targets.keySet())) {
          if (!keep.contains(name)) {
            targets.remove(name).close();
          }
        }
      }
      // Warm-up passes over the three (they share the HTTP and Kafka client code) until the JIT is
      // nearly quiet, so that the measured rounds see little of it (after three passes of 2,000
      // the C2 compiler still took over half of the receiver's CPU in the measured rounds).
      warmUp(targets, concurrency, Math.min(requests, 3000));
      Map<String, List<Measured>> rounds = new java.util.LinkedHashMap<>();
      List<String> order = new java.util.ArrayList<>(targets.keySet());
      for (int round = 0; round < 2; round++) {
        for (String name : order) {
          String clientId = name.equals("bare_producer") ? "bench-bare" : "bench-receiver";
          double[] before = producerTotals(clientId);
          Profiler.start();
          mark("start " + name + "-" + round);
          Measured measured = run(targets.get(name).sender(), concurrency, requests);
          mark("end " + name + "-" + round);
          Profiler.stop(name + "-" + round);
          double[] after = producerTotals(clientId);
          if (!name.equals("receiver_noop")) {
            System.out.printf(
                Locale.ROOT,
                "  %s round %d: %.0f produce requests, %.1f records per request%n",
                name,
                round,
                after[0] - before[0],
                (after[1] - before[1]) / (after[0] - before[0]));
          }
          rounds.computeIfAbsent(name, k -> new java.util.ArrayList<>()).add(measured);
        }
        java.util.Collections.reverse(order);
      }
      for (Map.Entry<String, List<Measured>> r : rounds.entrySet()) {
        String name = r.getKey();
        put(
            results,
            name,
            summarise(targets.get(name).label(), r.getValue(), !name.equals("bare_producer")));
      }
    } finally {
      for (Target t : targets.values()) {
        t.close();
      }
    }
  }

  /**
   * Optional CPU profiles of the measured parts: with {@code -Dfaultline.bench.profile=DIR} and
   * async-profiler's native library in {@code faultline.bench.profileLib} (the {@code
   * tools.profiler:async-profiler} jar carries it; its classes on the class path), each measured
   * round is written to {@code DIR/<part>.collapsed} (collapsed stacks, per thread).
   */
  static final class Profiler {
    private static final String DIR = System.getProperty("faultline.bench.profile");

    private Profiler() {}

    static void start() throws Exception {
      if (DIR != null) {
        execute("start,event=cpu,interval=2ms,threads");
      }
    }

    static void stop(String part) throws Exception {
      if (DIR != null) {
        execute("stop,file=" + Path.of(DIR, part + ".collapsed") + ",collapsed");
      }
    }

    private static void execute(String command) throws Exception {
      Class<?> api = Class.forName("one.profiler.AsyncProfiler");
      Object profiler =
          api.getMethod("getInstance", String.class)
              .invoke(null, System.getProperty("faultline.bench.profileLib"));
      api.getMethod("execute", String.class).invoke(profiler, command);
    }
  }

  /**
   * At least {@link #WARM_UP_PASSES} passes over the targets, then more (up to {@link
   * #MAX_WARM_UP_PASSES}) while the compiler threads used more than {@link
   * #QUIET_COMPILER_CPU_SHARE} of the process's CPU in a pass: a method run once per request
   * reaches C2's thresholds only after several thousand requests, later still while C2's queue is
   * long (its thresholds scale with the queue), so after three passes of 2,000 requests the
   * compiler took over half the receiver's CPU in the measured rounds, and after eight still a
   * third (docs/performance.md, "Receiver, fifth pass"). The whole JVM's code is compiled once, not
   * again and again (1,897 C2 compilations of 1,705 methods in a 30-pass run, 6 of them in the
   * measured rounds). The measured rounds are to show the receiver as it runs for days, not its
   * first minute.
   */
  private static void warmUp(Map<String, Target> targets, int concurrency, int requests)
      throws Exception {
    java.lang.management.CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    for (int pass = 1; pass <= MAX_WARM_UP_PASSES; pass++) {
      long compiling = jit.getTotalCompilationTime();
      Map<String, long[]> native0 = NativeThreadCpu.snapshot();
      long cpu0 = processCpu();
      long start = System.nanoTime();
      for (Map.Entry<String, Target> t : targets.entrySet()) {
        run(t.getValue().sender(), concurrency, requests);
      }
      // The compilers' time is elapsed time summed over their threads: over 100% while C1 and C2
      // both work.
      double share =
          (jit.getTotalCompilationTime() - compiling) * 1e6 / (System.nanoTime() - start);
      long cpu = processCpu() - cpu0;
      Map<String, Long> jvm = NativeThreadCpu.groups(native0, NativeThreadCpu.snapshot());
      long compilers =
          jvm.entrySet().stream()
              .filter(e -> e.getKey().startsWith("JIT"))
              .mapToLong(Map.Entry::getValue)
              .sum();
      // Printed only: the compiler threads' CPU (not elapsed) share of the process's in the pass.
      System.out.printf(
          Locale.ROOT,
          "  warm-up pass %d: the JIT compiled for %.0f%% of its time (compiler threads %.0f%% of"
              + " the process's CPU)%n",
          pass,
          share * 100,
          cpu > 0 ? compilers * 100.0 / cpu : 0.0);
      // Session 9: the compilers' elapsed time (the MXBean's) did not tell when compiling was done
      // (runs stopped by it after 12-15 passes still had C2 at 0.02-0.07 CPU-ms per request in
      // the measured rounds, after 30 passes 0.003-0.012), so at least 20 passes, then more while
      // the compiler threads' own CPU is over 5% of the process's.
      if (pass >= WARM_UP_PASSES && cpu > 0 && compilers < QUIET_COMPILER_CPU_SHARE * cpu) {
        return;
      }
    }
  }

  /**
   * With {@code -Dfaultline.bench.marks=true}, prints the JVM's uptime in ms beside {@code what}: a
   * measured round's bounds in the time base of {@code -XX:+PrintCompilation}.
   */
  private static void mark(String what) {
    if (Boolean.getBoolean("faultline.bench.marks")) {
      System.out.printf(
          Locale.ROOT, "mark %d %s%n", ManagementFactory.getRuntimeMXBean().getUptime(), what);
    }
  }

  /** One thing to send to: how to send one delivery, what it is, how to stop it. */
  private record Target(String label, Sender sender, AutoCloseable resources)
      implements AutoCloseable {
    @Override
    public void close() throws Exception {
      resources.close();
    }
  }

  private static void put(Map<String, Double> results, String prefix, double[] rateP50P99) {
    results.put(prefix + "_req_per_s", rateP50P99[0]);
    results.put(prefix + "_p50_ms", rateP50P99[1]);
    results.put(prefix + "_p99_ms", rateP50P99[2]);
    results.put(prefix + "_cpu_ms_per_req", rateP50P99[3]);
    if (!prefix.equals("bare_producer")) {
      results.put(prefix + "_client_cpu_ms_per_req", rateP50P99[4]);
      results.put(prefix + "_cpu_ms_per_req_less_client", rateP50P99[5]);
    }
  }

  /**
   * Acknowledges at once: the receiver's own ceiling (HTTP, HMAC, JSON parse, Avro envelope),
   * without Kafka.
   */
  private static final class NoopPublisher implements dev.faultline.ingest.DeliveryPublisher {
    private final AvroCodec<Delivery> codec = AvroCodec.deliveries();

    @Override
    public CompletableFuture<Void> publish(String key, Delivery delivery) {
      codec.encode(delivery);
      return CompletableFuture.completedFuture(null);
    }

    /** The receiver hands over the envelope already encoded: nothing left to do. */
    @Override
    public CompletableFuture<dev.faultline.ingest.Handoff> handOffEncoded(
        String key, String deliveryId, byte[] value) {
      return CompletableFuture.completedFuture(dev.faultline.ingest.Handoff.ACKNOWLEDGED);
    }

    @Override
    public void close() {}
  }

  static byte[] payload12k() throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode p = mapper.createObjectNode();
    p.put("action", "opened");
    ObjectNode issue = p.putObject("issue");
    issue.put("number", 1);
    issue.put("title", "NCCL timeout in ZeRO-3 allgather");
    issue.put("updated_at", "2099-01-01T00:00:00Z");
    StringBuilder body = new StringBuilder();
    Random r = new Random(1);
    while (body.length() < 11_700) {
      body.append("word").append(r.nextInt(10_000)).append(' ');
    }
    issue.put("body", body.toString());
    p.putObject("repository").put("full_name", "microsoft/DeepSpeed");
    byte[] bytes = mapper.writeValueAsBytes(p);
    System.out.printf(Locale.ROOT, "payload: %d bytes%n", bytes.length);
    return bytes;
  }

  private static Target receiver(
      EmbeddedKafka kafka, Path dir, byte[] payload, boolean noKafka, int concurrency)
      throws Exception {
    IngestConfig config =
        IngestConfig.builder()
            .secret(SECRET)
            .bootstrapServers(kafka.bootstrapServers())
            .deliveryTopic("bench-receiver")
            .spoolDir(dir.resolve(noKafka ? "spool-noop" : "spool"))
            .maxDeliveryAge(Duration.ZERO)
            .producerProperties(producerOverrides("bench-receiver"))
            .build();
    String signature = WebhookSignature.sign(SECRET, payload);
    dev.faultline.ingest.DeliveryPublisher publisher =
        noKafka
            ? new NoopPublisher()
            : SpoolingPublisher.open(
                KafkaDeliveryPublisher.create(config), config.spoolDir(), config.handoffTimeout());
    WebhookApp app = Receivers.start(config, publisher);
    long firstId = noKafka ? 500_000_000_000L : 0;
    AutoCloseable client;
    Sender send;
    if (CLIENT.equals("jdk")) {
      JdkClient jdk = new JdkClient(app.port(), payload, signature, firstId);
      client = jdk;
      send = jdk::send;
    } else {
      LeanHttpClient lean =
          LeanHttpClient.post(
              new java.net.InetSocketAddress("127.0.0.1", app.port()),
              WebhookApp.WEBHOOK_PATH,
              List.of(
                  "Content-Type",
                  "application/json",
                  "X-GitHub-Event",
                  "issues",
                  WebhookSignature.HEADER,
                  signature),
              "X-GitHub-Delivery",
              "bench-",
              payload,
              concurrency,
              firstId);
      client = lean;
      send = lean::send;
    }
    return new Target(
        noKafka ? "receiver  POST→no-op publisher (ceiling)" : "receiver  POST→Kafka acks=all",
        send,
        () -> {
          client.close();
          app.stop();
          publisher.close();
        });
  }

  /**
   * The JDK's {@link HttpClient} (HTTP/1.1, 4 executor threads), the benchmark's client before the
   * lean one ({@code -Dfaultline.bench.client=jdk}): known to be CPU-heavy per request.
   */
  private static final class JdkClient implements AutoCloseable {
    private final java.util.concurrent.ExecutorService threads;
    private final HttpClient client;
    private final URI uri;
    private final byte[] payload;
    private final String signature;
    private final AtomicLong ids;

    JdkClient(int port, byte[] payload, String signature, long firstId) {
      AtomicLong n = new AtomicLong();
      this.threads =
          Executors.newFixedThreadPool(
              4,
              r -> {
                Thread t =
                    new Thread(r, LeanHttpClient.THREAD_PREFIX + "jdk-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
              });
      this.client =
          HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(threads).build();
      this.uri = URI.create("http://127.0.0.1:" + port + WebhookApp.WEBHOOK_PATH);
      this.payload = payload;
      this.signature = signature;
      this.ids = new AtomicLong(firstId);
    }

    CompletableFuture<Void> send() {
      HttpRequest request =
          HttpRequest.newBuilder(uri)
              .header("Content-Type", "application/json")
              .header("X-GitHub-Event", "issues")
              .header("X-GitHub-Delivery", "bench-" + ids.incrementAndGet())
              .header(WebhookSignature.HEADER, signature)
              .POST(HttpRequest.BodyPublishers.ofByteArray(payload))
              .build();
      return client
          .sendAsync(request, HttpResponse.BodyHandlers.discarding())
          .thenAccept(
              r -> {
                if (r.statusCode() / 100 != 2) {
                  throw new IllegalStateException("status " + r.statusCode());
                }
              });
    }

    @Override
    public void close() {
      threads.shutdownNow();
    }
  }

  private static Target bareProducer(EmbeddedKafka kafka, byte[] payload) throws Exception {
    IngestConfig config =
        IngestConfig.builder()
            .secret(SECRET)
            .bootstrapServers(kafka.bootstrapServers())
            .producerProperties(producerOverrides("bench-bare"))
            .build();
    AvroCodec<Delivery> codec = AvroCodec.deliveries();
    String json = new String(payload, StandardCharsets.UTF_8);
    String key = DeliveryKey.of("issues", new ObjectMapper().readTree(payload));
    KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(
            KafkaDeliveryPublisher.producerProperties(config),
            new StringSerializer(),
            new ByteArraySerializer());
    AtomicLong ids = new AtomicLong();
    Sender send =
        () -> {
          CompletableFuture<Void> done = new CompletableFuture<>();
          Delivery d =
              Delivery.newBuilder()
                  .setDeliveryId("bare-" + ids.incrementAndGet())
                  .setEvent("issues")
                  .setAction("opened")
                  .setRepository("microsoft/DeepSpeed")
                  .setReceivedAt(Instant.now())
                  .setSource(DeliverySource.WEBHOOK)
                  .setPayloadJson(json)
                  .build();
          producer.send(
              new ProducerRecord<>("bench-bare", key, codec.encode(d)),
              (m, e) -> {
                if (e != null) {
                  done.completeExceptionally(e);
                } else {
                  done.complete(null);
                }
              });
          return done;
        };
    return new Target("baseline  bare KafkaProducer acks=all", send, producer::close);
  }

  /**
   * The same producer settings for the receiver and the bare producer: the receiver's defaults,
   * then any {@code -Dfaultline.bench.producer.<property>=<value>} (to try a setting on both
   * sides), and a client id of each side's own (for its producer metrics).
   */
  private static Map<String, String> producerOverrides(String clientId) {
    Map<String, String> props = new TreeMap<>();
    String prefix = "faultline.bench.producer.";
    System.getProperties()
        .stringPropertyNames()
        .forEach(
            n -> {
              if (n.startsWith(prefix)) {
                props.put(n.substring(prefix.length()), System.getProperty(n));
              }
            });
    props.put("client.id", clientId);
    return props;
  }

  /** Records per produce request and requests so far of the producer with this client id. */
  private static double[] producerTotals(String clientId) {
    try {
      javax.management.MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      javax.management.ObjectName name =
          new javax.management.ObjectName(
              "kafka.producer:type=producer-metrics,client-id=" + clientId);
      double requests = ((Number) server.getAttribute(name, "request-total")).doubleValue();
      double records = ((Number) server.getAttribute(name, "record-send-total")).doubleValue();
      return new double[] {requests, records};
    } catch (Exception e) {
      return new double[] {Double.NaN, Double.NaN};
    }
  }

  interface Sender {
    CompletableFuture<Void> send();
  }

  /**
   * One measured run: each send's latency in nanoseconds, its failures, elapsed nanoseconds,
   * process CPU nanoseconds, and the CPU nanoseconds of each group of threads ({@link
   * #threadGroup}).
   */
  record Measured(
      long[] latencies,
      long failures,
      long elapsed,
      long cpu,
      Map<String, Long> groups,
      Map<String, Long> nativeGroups,
      Map<String, Long> allocated,
      Map<String, Long> gc) {}

  /** Keeps {@code concurrency} sends outstanding until {@code total} completed. */
  private static Measured run(Sender sender, int concurrency, int total) throws Exception {
    Semaphore permits = new Semaphore(concurrency);
    long[] latencies = new long[total];
    // The other snapshots first: reading them is this thread's CPU, outside the process's figure.
    Map<Long, Long> alloc0 = threadAllocated();
    Map<String, long[]> native0 = NativeThreadCpu.snapshot();
    Map<String, Long> gc0 = gcTotals();
    Map<Long, Long> threads0 = threadCpu();
    long cpu = processCpu();
    AtomicLong failures = new AtomicLong();
    java.util.concurrent.atomic.AtomicReference<Throwable> firstFailure =
        new java.util.concurrent.atomic.AtomicReference<>();
    long start = System.nanoTime();
    for (int i = 0; i < total; i++) {
      permits.acquire();
      int n = i;
      long t0 = System.nanoTime();
      sender
          .send()
          .whenComplete(
              (v, e) -> {
                latencies[n] = System.nanoTime() - t0;
                if (e != null) {
                  failures.incrementAndGet();
                  firstFailure.compareAndSet(null, e);
                }
                permits.release();
              });
    }
    permits.acquire(concurrency);
    long elapsed = System.nanoTime() - start;
    long cpuUsed = processCpu() - cpu;
    Map<String, Long> groups = threadGroups(threads0, threadCpu(), cpuUsed);
    Map<String, Long> nativeGroups = NativeThreadCpu.groups(native0, NativeThreadCpu.snapshot());
    Map<String, Long> gc = gcTotals();
    gc0.forEach((k, v) -> gc.merge(k, -v, Long::sum));
    Map<String, Long> allocated = allocatedGroups(alloc0, threadAllocated());
    if (failures.get() > 0) {
      throw new IllegalStateException(
          failures.get() + " of " + total + " sends failed, the first: " + firstFailure.get());
    }
    return new Measured(
        latencies, failures.get(), elapsed, cpuUsed, groups, nativeGroups, allocated, gc);
  }

  /**
   * Bytes allocated so far per live thread id (Java threads only; -1 where the JVM cannot tell).
   */
  private static Map<Long, Long> threadAllocated() {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long[] ids = mx.getAllThreadIds();
    long[] bytes = mx.getThreadAllocatedBytes(ids);
    Map<Long, Long> allocated = new java.util.HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      allocated.put(ids[i], bytes[i]);
    }
    return allocated;
  }

  /**
   * The bytes each group of Java threads ({@link #threadGroup}) allocated between two snapshots.
   */
  private static Map<String, Long> allocatedGroups(Map<Long, Long> before, Map<Long, Long> after) {
    return groupDeltas(before, after);
  }

  /**
   * Each garbage collector's collections ({@code <name> count}) and their time in ms ({@code <name>
   * ms}) so far, as {@link java.lang.management.GarbageCollectorMXBean} counts them.
   */
  private static Map<String, Long> gcTotals() {
    Map<String, Long> totals = new TreeMap<>();
    for (java.lang.management.GarbageCollectorMXBean gc :
        ManagementFactory.getGarbageCollectorMXBeans()) {
      totals.put(gc.getName() + " count", Math.max(0, gc.getCollectionCount()));
      totals.put(gc.getName() + " ms", Math.max(0, gc.getCollectionTime()));
    }
    return totals;
  }

  /** CPU nanoseconds per live thread id (-1 where the JVM cannot tell). */
  private static Map<Long, Long> threadCpu() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Map<Long, Long> cpu = new java.util.HashMap<>();
    for (long id : mx.getAllThreadIds()) {
      cpu.put(id, mx.getThreadCpuTime(id));
    }
    return cpu;
  }

  private static final Map<Long, String> THREAD_NAMES =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The CPU each group of threads spent between two snapshots; "not Java threads" is the rest of
   * the process's (the JIT compiler's and the garbage collector's threads, which {@link
   * ThreadMXBean} does not list).
   */
  private static Map<String, Long> threadGroups(
      Map<Long, Long> before, Map<Long, Long> after, long processCpu) {
    Map<String, Long> groups = groupDeltas(before, after);
    long listed = groups.values().stream().mapToLong(Long::longValue).sum();
    groups.put("not Java threads (JIT, GC)", Math.max(0, processCpu - listed));
    return groups;
  }

  /**
   * Per-thread counters' growth between two snapshots (thread id → counter), summed by {@link
   * #threadGroup}; threads whose counter did not grow are left out.
   */
  private static Map<String, Long> groupDeltas(Map<Long, Long> before, Map<Long, Long> after) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long main = Thread.currentThread().getId();
    Map<String, Long> groups = new TreeMap<>();
    for (Map.Entry<Long, Long> e : after.entrySet()) {
      long used = Math.max(0, e.getValue()) - Math.max(0, before.getOrDefault(e.getKey(), 0L));
      if (used <= 0) {
        continue;
      }
      String name =
          THREAD_NAMES.computeIfAbsent(
              e.getKey(),
              id -> {
                java.lang.management.ThreadInfo info = mx.getThreadInfo(id);
                return info == null ? "?" : info.getThreadName();
              });
      groups.merge(threadGroup(e.getKey(), main, name), used, Long::sum);
    }
    return groups;
  }

  /** A thread's group: the load generator's, Kafka's (broker, producer), the receiver's. */
  static String threadGroup(long id, long main, String name) {
    if (id == main) {
      return "client: benchmark main thread (sends)";
    }
    if (name.startsWith(LeanHttpClient.THREAD_PREFIX) || name.startsWith("HttpClient-")) {
      return "client: HTTP client threads";
    }
    if (BROKER_THREADS.contains(id) || name.startsWith("data-plane-kafka")) {
      return "kafka: broker";
    }
    if (name.startsWith("kafka-producer-network-thread")) {
      return "kafka: producer I/O thread";
    }
    if (name.startsWith("faultline-webhook-answer")) {
      return "receiver: answer threads";
    }
    if (name.startsWith("faultline-spool")) {
      return "receiver: spool";
    }
    if (name.startsWith("JettyServerThreadPool") || name.startsWith("qtp")) {
      return "receiver: Jetty threads";
    }
    return "other: " + name.replaceAll("[0-9]+", "#");
  }

  /**
   * Prints and returns requests/s, p50 ms, p99 ms, process CPU ms per request (the load generator,
   * receiver and broker together: all in this JVM), the client's CPU ms per request (its threads
   * and the sending main thread) and the process's less the client's, over the pooled rounds; with
   * {@code -Dfaultline.bench.threads=true} also each thread group's CPU ms per request, "not Java
   * threads" split by the JVM's own threads ({@link NativeThreadCpu}), the Java threads' allocation
   * per request by group, and the collections ({@code GarbageCollectorMXBean}).
   */
  private static double[] summarise(String label, List<Measured> rounds, boolean http) {
    long elapsed = 0;
    long failures = 0;
    long cpu = 0;
    Map<String, Long> groups = new TreeMap<>();
    Map<String, Long> nativeGroups = new TreeMap<>();
    Map<String, Long> allocated = new TreeMap<>();
    Map<String, Long> gc = new TreeMap<>();
    List<Long> all = new java.util.ArrayList<>();
    for (Measured r : rounds) {
      r.nativeGroups().forEach((k, v) -> nativeGroups.merge(k, v, Long::sum));
      r.allocated().forEach((k, v) -> allocated.merge(k, v, Long::sum));
      r.gc().forEach((k, v) -> gc.merge(k, v, Long::sum));
      for (long l : r.latencies()) {
        all.add(l);
      }
      failures += r.failures();
      elapsed += r.elapsed();
      cpu += r.cpu();
      r.groups().forEach((k, v) -> groups.merge(k, v, Long::sum));
    }
    java.util.Collections.sort(all);
    int total = all.size();
    double rate = total / (elapsed / 1e9);
    double p50 = all.get(total / 2) / 1e6;
    double p99 = all.get((int) (total * 0.99)) / 1e6;
    double cpuMs = cpu / 1e6 / total;
    long client =
        groups.entrySet().stream()
            .filter(e -> e.getKey().startsWith("client:"))
            .mapToLong(Map.Entry::getValue)
            .sum();
    double clientMs = http ? client / 1e6 / total : 0;
    System.out.printf(
        Locale.ROOT,
        "%-42s %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms  %5.2f CPU-ms/req  (%d requests in %d rounds,"
            + " %d failed)%n",
        label,
        rate,
        p50,
        p99,
        cpuMs,
        total,
        rounds.size(),
        failures);
    if (http) {
      System.out.printf(
          Locale.ROOT,
          "%-42s %5.2f CPU-ms/req the %s client, %5.2f the rest of the process%n",
          "",
          clientMs,
          CLIENT,
          cpuMs - clientMs);
    }
    if (Boolean.getBoolean("faultline.bench.threads")) {
      groups.forEach(
          (g, ns) ->
              System.out.printf(Locale.ROOT, "    %-50s %6.3f CPU-ms/req%n", g, ns / 1e6 / total));
      // "not Java threads" split by the JVM threads' native names (/proc/self/task): the rest is
      // what no named group holds (and the two clocks' difference).
      long notJava = groups.getOrDefault("not Java threads (JIT, GC)", 0L);
      long named = 0;
      for (Map.Entry<String, Long> e : nativeGroups.entrySet()) {
        System.out.printf(
            Locale.ROOT,
            "      of it %-44s %6.3f CPU-ms/req%n",
            e.getKey(),
            e.getValue() / 1e6 / total);
        named += e.getValue();
      }
      if (!nativeGroups.isEmpty()) {
        System.out.printf(
            Locale.ROOT,
            "      of it %-44s %6.3f CPU-ms/req%n",
            "the rest",
            (notJava - named) / 1e6 / total);
      }
      long allBytes = allocated.values().stream().mapToLong(Long::longValue).sum();
      System.out.printf(
          Locale.ROOT,
          "    %-50s %6.1f KB/req%n",
          "allocated, all Java threads",
          allBytes / 1024.0 / total);
      allocated.forEach(
          (g, b) ->
              System.out.printf(Locale.ROOT, "      %-48s %6.1f KB/req%n", g, b / 1024.0 / total));
      StringBuilder collections = new StringBuilder();
      gc.forEach(
          (k, v) ->
              collections
                  .append(collections.length() == 0 ? "" : ", ")
                  .append(k)
                  .append(' ')
                  .append(v));
      System.out.printf(
          Locale.ROOT,
          "    %-50s %s (%.3f pause-ms/req)%n",
          "GC (GarbageCollectorMXBean, both rounds)",
          collections,
          gc.entrySet().stream()
                  .filter(e -> e.getKey().endsWith(" ms"))
                  .mapToLong(Map.Entry::getValue)
                  .sum()
              / (double) total);
    }
    return new double[] {rate, p50, p99, cpuMs, clientMs, cpuMs - clientMs};
  }

  // ---------------------------------------------------------------------------------------------------------
  // GH Archive backfill

  private static void backfill(EmbeddedKafka kafka, Path dir, Map<String, Double> results)
      throws Exception {
    for (double share : new double[] {0.001, 1.0}) {
      Path file = dir.resolve("gharchive-" + share + ".json.gz");
      int events = Integer.getInteger("faultline.bench.backfillEvents", 200_000);
      String suffix = share < 1 ? "_sparse" : "_all";
      long size = generate(file, events, share);
      System.out.printf(
          Locale.ROOT,
          "%nGH Archive file: %d events, %.1f MB gzipped, %.1f%% of the chosen repositories%n",
          events,
          size / 1e6,
          share * 100);
      for (int round = 0; round < 2; round++) {
        boolean print = round == 1;
        double[] parse = baselineParse(file, events, print);
        double[] reader = readerOnly(file, print);
        if (print) {
          results.put("parse_events_per_s" + suffix, parse[0]);
          results.put("parse_events_per_cpu_s" + suffix, parse[1]);
          results.put("parse_events_per_process_cpu_s" + suffix, parse[2]);
          results.put("reader_events_per_process_cpu_s" + suffix, reader[2]);
          results.put("reader_events_per_s" + suffix, reader[0]);
          results.put("reader_events_per_cpu_s" + suffix, reader[1]);
        }
      }
      // End to end through the command, real Kafka, acks=all; three times, the last counted (the
      // first runs pay for compiling the command's path: on the second run the C2 compiler still
      // took about 40% of the command's CPU).
      for (int round = 0; round < COMMAND_RUNS; round++) {
        boolean counted = round == COMMAND_RUNS - 1;
        if (counted) {
          Profiler.start();
        }
        long t0 = System.nanoTime();
        long cpu0 = processCpu();
        long own0 = ownCpu();
        int code =
            BackfillCommand.run(
                new String[] {
                  "gharchive",
                  "--bootstrap-servers",
                  kafka.bootstrapServers(),
                  "--topic",
                  "bench-backfill",
                  file.toString()
                },
                System.getenv(),
                new PrintStream(OutputStream.nullOutputStream()),
                System.err);
        double wall = (System.nanoTime() - t0) / 1e9;
        double cpu = (processCpu() - cpu0) / 1e9;
        double own = (ownCpu() - own0) / 1e9;
        if (!counted) {
          continue;
        }
        Profiler.stop("backfill-command" + suffix);
        System.out.printf(
            Locale.ROOT,
            "  %-44s %9.0f events/s wall, %9.0f events per CPU-second; %9.0f with the broker's"
                + " CPU (exit %d)%n",
            "backfill command → Kafka acks=all",
            events / wall,
            events / own,
            events / cpu,
            code);
        if (code == 0) {
          results.put("command_events_per_s" + suffix, events / wall);
          results.put("command_events_per_cpu_s" + suffix, events / own);
          results.put("command_events_per_cpu_s_with_broker" + suffix, events / cpu);
        }
      }
    }
  }

  /**
   * The threads the embedded broker started (every live thread but this one, right after the broker
   * started): their CPU is Kafka's, not the command's, and comes off {@link #ownCpu()}.
   */
  private static final java.util.Set<Long> BROKER_THREADS = new java.util.HashSet<>();

  private static void rememberBrokerThreads() {
    long self = Thread.currentThread().getId();
    for (long id : ManagementFactory.getThreadMXBean().getAllThreadIds()) {
      if (id != self) {
        BROKER_THREADS.add(id);
      }
    }
  }

  /**
   * Process CPU time (every thread of this JVM, the JIT compiler's and the garbage collector's
   * included) less the embedded broker's threads: the command's measure, without Kafka's side (a
   * separate server in production) but with its own compilation and collection, which the
   * one-thread baseline's CPU time does not count (it is also reported by this measure).
   */
  private static long ownCpu() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long broker = 0;
    for (long id : BROKER_THREADS) {
      broker += Math.max(0, threads.getThreadCpuTime(id));
    }
    return processCpu() - broker;
  }

  private static long processCpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * Returns events per wall second, per CPU second of this thread, and per CPU second of the
   * process less the broker ({@link #ownCpu()}, the command's measure).
   */
  private static double[] baselineParse(Path file, int events, boolean print) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long own0 = ownCpu();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    long n = 0;
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                new GZIPInputStream(
                    new BufferedInputStream(Files.newInputStream(file), 1 << 16), 1 << 16),
                StandardCharsets.UTF_8),
            1 << 16)) {
      String line;
      while ((line = in.readLine()) != null) {
        mapper.readTree(line);
        n++;
      }
    }
    double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
    double own = (ownCpu() - own0) / 1e9;
    double wall = (System.nanoTime() - t0) / 1e9;
    if (print) {
      System.out.printf(
          Locale.ROOT,
          "  %-44s %9.0f events/s wall, %9.0f events per CPU-second%n",
          "baseline gunzip + JSON parse (readTree)",
          n / wall,
          n / cpu);
    }
    return new double[] {n / wall, n / cpu, n / own};
  }

  /**
   * Returns events per wall second, per CPU second of this thread, and per CPU second of the
   * process less the broker ({@link #ownCpu()}, the command's measure).
   */
  private static double[] readerOnly(Path file, boolean print) throws Exception {
    AtomicLong encodedBytes = new AtomicLong();
    GhArchiveReader reader =
        new GhArchiveReader(new ObjectMapper(), RepositoryFilter.defaults(), Clock.systemUTC());
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long own0 = ownCpu();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    GhArchiveReader.Counts counts;
    try (InputStream in =
        new GZIPInputStream(
            new BufferedInputStream(Files.newInputStream(file), 1 << 16), 1 << 16)) {
      counts = reader.read(in, d -> encodedBytes.addAndGet(d.value().length));
    }
    double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
    double own = (ownCpu() - own0) / 1e9;
    double wall = (System.nanoTime() - t0) / 1e9;
    if (print) {
      System.out.printf(
          Locale.ROOT,
          "  %-44s %9.0f events/s wall, %9.0f events per CPU-second (%d kept)%n",
          "reader: gunzip + filter + convert + Avro",
          counts.events() / wall,
          counts.events() / cpu,
          counts.kept());
    }
    return new double[] {counts.events() / wall, counts.events() / cpu, counts.events() / own};
  }

  /** A GH Archive-like hour: mostly other repositories and event types, ~1-3 KB a line. */
  static long generate(Path file, int events, double chosenShare) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    Random random = new Random(42);
    String[] types = {
      "PushEvent",
      "WatchEvent",
      "CreateEvent",
      "IssuesEvent",
      "IssueCommentEvent",
      "PullRequestEvent",
      "ReleaseEvent",
      "ForkEvent"
    };
    List<String> chosen = RepositoryFilter.DEFAULT_REPOSITORIES;
    StringBuilder filler = new StringBuilder();
    while (filler.length() < 1500) {
      filler.append("lorem ipsum dolor sit amet ");
    }
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file), 1 << 16)) {
      for (int i = 0; i < events; i++) {
        boolean mine = random.nextDouble() < chosenShare;
        String type = mine ? types[3 + random.nextInt(4)] : types[random.nextInt(types.length)];
        String repo =
            mine
                ? chosen.get(random.nextInt(chosen.size()))
                : "user" + random.nextInt(100_000) + "/repo";
        ObjectNode e = mapper.createObjectNode();
        e.put("id", Long.toString(40_000_000_000L + i));
        e.put("type", type);
        e.putObject("actor")
            .put("id", random.nextInt(1_000_000))
            .put("login", "user" + random.nextInt(1000));
        e.putObject("repo")
            .put("id", random.nextInt(1_000_000))
            .put("name", repo)
            .put("url", "https://api.github.com/repos/" + repo);
        ObjectNode payload = e.putObject("payload");
        payload.put("action", "opened");
        ObjectNode issue =
            payload.putObject(type.equals("PullRequestEvent") ? "pull_request" : "issue");
        issue.put("number", random.nextInt(10_000));
        issue.put("title", "title " + i);
        issue.put("body", filler.substring(0, 500 + random.nextInt(1000)));
        issue.put("updated_at", "2024-03-01T10:00:00Z");
        if (type.equals("PullRequestEvent")) {
          payload.put("number", issue.get("number").asInt());
        }
        e.put("public", true);
        e.put("created_at", "2024-03-01T10:00:00Z");
        out.write(mapper.writeValueAsBytes(e));
        out.write('\n');
      }
    }
    return Files.size(file);
  }
}
