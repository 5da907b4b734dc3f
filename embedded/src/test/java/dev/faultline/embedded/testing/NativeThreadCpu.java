package dev.faultline.embedded.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JVM's own threads, which {@code ThreadMXBean} does not list (the JIT's compiler threads, the
 * garbage collector's, the VM thread), read from {@code /proc/self/task/<tid>}: each task's name
 * ({@code comm}, the native thread name, at most 15 characters) and its CPU time ({@code
 * schedstat}'s first field, ns; else {@code stat}'s utime + stime in clock ticks of 10 ms). Empty
 * where there is no {@code /proc}. For the benchmarks' CPU breakdowns (ingest's {@code
 * ReceiverBenchmark}, stream-jobs' {@code CategoryStatsBenchmark}).
 */
public final class NativeThreadCpu {
  private static final Path TASKS = Path.of("/proc/self/task");

  private NativeThreadCpu() {}

  /** Per task id: its name and CPU nanoseconds so far. */
  public static Map<String, long[]> snapshot() {
    Map<String, long[]> tasks = new java.util.HashMap<>();
    if (!Files.isDirectory(TASKS)) {
      return tasks;
    }
    try (java.util.stream.Stream<Path> list = Files.list(TASKS)) {
      for (Path task : (Iterable<Path>) list::iterator) {
        try {
          String name = Files.readString(task.resolve("comm")).trim();
          String group = group(name);
          if (group == null) {
            continue;
          }
          tasks.put(task.getFileName() + " " + group, new long[] {cpuNanos(task)});
        } catch (java.io.IOException | RuntimeException e) {
          // The task ended meanwhile.
        }
      }
    } catch (java.io.IOException e) {
      return tasks;
    }
    return tasks;
  }

  private static long cpuNanos(Path task) throws java.io.IOException {
    Path schedstat = task.resolve("schedstat");
    if (Files.exists(schedstat)) {
      return Long.parseLong(Files.readString(schedstat).trim().split(" ")[0]);
    }
    String stat = Files.readString(task.resolve("stat"));
    // After the name in parentheses: state is field 3, utime 14, stime 15.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
  }

  /** The CPU nanoseconds of each group between two snapshots. */
  public static Map<String, Long> groups(Map<String, long[]> before, Map<String, long[]> after) {
    Map<String, Long> groups = new TreeMap<>();
    for (Map.Entry<String, long[]> e : after.entrySet()) {
      long[] b = before.get(e.getKey());
      long used = e.getValue()[0] - (b == null ? 0 : b[0]);
      String group = e.getKey().substring(e.getKey().indexOf(' ') + 1);
      groups.merge(group, Math.max(0, used), Long::sum);
    }
    return groups;
  }

  /**
   * The group of one of the JVM's own threads by its native name, or null for any other (a Java
   * thread, which {@code ThreadMXBean} lists).
   */
  public static String group(String name) {
    if (name.startsWith("C2 CompilerThre")) {
      return "JIT: C2 compiler threads";
    }
    if (name.startsWith("C1 CompilerThre")) {
      return "JIT: C1 compiler threads";
    }
    if (name.startsWith("GC Thread#")) {
      return "GC: parallel workers (pauses)";
    }
    if (name.startsWith("G1 Conc#") || name.startsWith("G1 Main Marker")) {
      return "GC: concurrent mark";
    }
    if (name.startsWith("G1 Refine#")) {
      return "GC: concurrent refinement";
    }
    if (name.startsWith("G1 Service") || name.startsWith("G1 Young RemSet")) {
      return "GC: service, remembered sets";
    }
    if (name.equals("VM Thread")) {
      return "VM thread (safepoints)";
    }
    if (name.startsWith("VM Periodic Tas") || name.startsWith("Sweeper thread")) {
      return "other JVM threads";
    }
    return null;
  }
}
