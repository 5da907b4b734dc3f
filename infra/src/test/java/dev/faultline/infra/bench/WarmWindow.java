package dev.faultline.infra.bench;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * The steady state of a bounded pipeline job: from the moment the job's consumer group has
 * committed {@code after} events (a completed checkpoint: those events are written) to the job's
 * end, the process CPU, the JIT compiler threads' CPU and the events in between; optionally
 * async-profiler over the same window ({@code -Dfaultline.bench.profile=<libasyncProfiler.so>},
 * {@code -Dfaultline.bench.profileOut=<file>}: CPU samples, 5 ms, per thread, collapsed stacks; its
 * class {@code one.profiler.AsyncProfiler} on the class path). Enabled by {@code
 * -Dfaultline.bench.warmAfter=<events>}. Events past the committed offset at the window's start may
 * be partly processed before it, so the window's CPU per event is a slight underestimate (at most
 * one checkpoint interval of work).
 */
final class WarmWindow implements AutoCloseable {
  private final Thread watcher;
  private volatile long startCpu = -1;
  private volatile long startJit;
  private volatile long startEvents;
  private volatile long startNanos;
  private volatile boolean done;

  private WarmWindow(String bootstrap, String group, long after) {
    watcher = new Thread(() -> watch(bootstrap, group, after), "warm-window");
    watcher.setDaemon(true);
    watcher.start();
  }

  /** Watches {@code group}'s committed offsets when {@code faultline.bench.warmAfter} is set. */
  static WarmWindow startIfAsked(String bootstrap, String group) {
    long after = Long.getLong("faultline.bench.warmAfter", -1);
    return after < 0 ? null : new WarmWindow(bootstrap, group, after);
  }

  private void watch(String bootstrap, String group, long after) {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(p)) {
      while (!done) {
        long committed = committed(admin, group);
        if (committed >= after) {
          startEvents = committed;
          startJit = PipelineBenchmark.jitMillis();
          startNanos = System.nanoTime();
          startCpu = cpuNanos();
          profiler("start,event=cpu,interval=5ms,threads");
          return;
        }
        Thread.sleep(200);
      }
    } catch (Exception e) {
      System.out.println("warm window: " + e);
    }
  }

  private static long committed(Admin admin, String group) throws Exception {
    Map<?, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    return offsets.values().stream().filter(o -> o != null).mapToLong(o -> o.offset()).sum();
  }

  /** Prints the window's figures for a job that handled {@code events} in all. */
  void report(long events) throws Exception {
    done = true;
    long cpu = cpuNanos();
    long jit = PipelineBenchmark.jitMillis();
    long nanos = System.nanoTime();
    if (startCpu < 0) {
      System.out.println("warm window: never reached");
      return;
    }
    String out = System.getProperty("faultline.bench.profileOut", "/tmp/pipeline-profile.txt");
    profiler("stop,collapsed,file=" + out);
    long n = events - startEvents;
    System.out.printf(
        "warm window (events %,d..%,d): %,.0f events/s, %.2f CPU-ms/event, of which JIT %.2f%n",
        startEvents,
        events,
        n / ((nanos - startNanos) / 1e9),
        (cpu - startCpu) / 1e6 / n,
        (jit - startJit) / (double) n);
  }

  private static void profiler(String command) throws Exception {
    String lib = System.getProperty("faultline.bench.profile");
    if (lib == null) {
      return;
    }
    Class<?> c = Class.forName("one.profiler.AsyncProfiler");
    Object p = c.getMethod("getInstance", String.class).invoke(null, lib);
    System.out.println("profiler: " + c.getMethod("execute", String.class).invoke(p, command));
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  @Override
  public void close() {
    done = true;
  }
}
