package dev.faultline.ingest.backfill;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of a backfill: on a terminal a line redrawn in place (events, events/s, ETA when the
 * total is known); otherwise a plain line every {@code logEvery}, fit for logs.
 */
public final class Progress {
  private final String label;
  private final String unit;
  private final PrintStream out;
  private final boolean terminal;
  private final LongSupplier nanoTime;
  private final long startNanos;
  private final long intervalNanos;
  private long lastPrintNanos;
  private boolean printedInPlace;

  public Progress(
      String label, PrintStream out, boolean terminal, Duration logEvery, LongSupplier nanoTime) {
    this(label, "events", out, terminal, logEvery, nanoTime);
  }

  /**
   * @param unit what is counted, plural ({@code events}, {@code changes})
   */
  public Progress(
      String label,
      String unit,
      PrintStream out,
      boolean terminal,
      Duration logEvery,
      LongSupplier nanoTime) {
    this.label = label;
    this.unit = unit;
    this.out = out;
    this.terminal = terminal;
    this.nanoTime = nanoTime;
    this.startNanos = nanoTime.getAsLong();
    this.intervalNanos = terminal ? Duration.ofMillis(200).toNanos() : logEvery.toNanos();
    this.lastPrintNanos = startNanos;
  }

  /** A progress on {@code out}, redrawn in place when this process has a console. */
  public static Progress forConsole(String label, PrintStream out) {
    return forConsole(label, "events", out);
  }

  /** Like {@link #forConsole(String, PrintStream)}, counting {@code unit} ({@code changes}). */
  public static Progress forConsole(String label, String unit, PrintStream out) {
    return new Progress(
        label, unit, out, System.console() != null, Duration.ofSeconds(10), System::nanoTime);
  }

  /**
   * @param events events so far
   * @param fractionDone 0..1 when the amount of work is known (bytes read of a file, pages of a
   *     listing), else -1
   */
  public void update(long events, double fractionDone) {
    long now = nanoTime.getAsLong();
    if (now - lastPrintNanos < intervalNanos) {
      return;
    }
    lastPrintNanos = now;
    String line = line(events, fractionDone, now);
    if (terminal) {
      out.print("\r" + line + "   ");
      printedInPlace = true;
    } else {
      out.println(line);
    }
    out.flush();
  }

  /** Prints the final line. */
  public void finish(long events) {
    String line = line(events, 1.0, nanoTime.getAsLong()) + " done";
    out.println((terminal && printedInPlace ? "\r" : "") + line);
    out.flush();
  }

  String line(long events, double fractionDone, long now) {
    double seconds = Math.max(1e-9, (now - startNanos) / 1e9);
    double rate = events / seconds;
    StringBuilder sb = new StringBuilder();
    sb.append(label).append(": ").append(events).append(' ').append(unit).append(", ");
    sb.append(String.format(Locale.ROOT, "%.0f %s/s", rate, unit));
    if (fractionDone > 0 && fractionDone < 1) {
      long etaSeconds = Math.round(seconds * (1 - fractionDone) / fractionDone);
      sb.append(
          String.format(Locale.ROOT, ", %.0f%%, ETA %s", fractionDone * 100, format(etaSeconds)));
    }
    return sb.toString();
  }

  private static String format(long seconds) {
    return seconds >= 3600
        ? String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, (seconds % 3600) / 60)
        : String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
  }
}
