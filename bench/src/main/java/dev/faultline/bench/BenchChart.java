package dev.faultline.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;

/**
 * A grouped bar chart, drawn with Java2D: per figure, a bar for its median and one for its
 * baseline's, each with a min–max whisker over the repeats. Needs no display ({@code
 * java.awt.headless}) and no chart library.
 */
final class BenchChart {
  static final Color FIGURE = new Color(0x2b6cb0);
  static final Color BASELINE = new Color(0xa0aec0);
  private static final int LEFT = 90;
  private static final int RIGHT = 30;
  private static final int TOP = 70;
  private static final int BOTTOM = 120;
  private static final int GROUP = 190;
  private static final int PLOT_HEIGHT = 300;

  private BenchChart() {}

  static BufferedImage draw(String title, List<BenchReport.Row> rows) {
    int width = Math.max(720, LEFT + RIGHT + GROUP * rows.size());
    int height = TOP + PLOT_HEIGHT + BOTTOM;
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, width, height);
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
      g.drawString(title, LEFT - 60, 28);
      legend(g, LEFT - 60, 50);

      double top = 0;
      for (BenchReport.Row r : rows) {
        top = Math.max(top, r.value().max());
        if (r.baseline().isPresent()) {
          top = Math.max(top, r.baseline().get().max());
        }
      }
      double[] ticks = ticks(top);
      double yMax = ticks[ticks.length - 1];
      int plotBottom = TOP + PLOT_HEIGHT;
      int plotRight = width - RIGHT;

      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      FontMetrics fm = g.getFontMetrics();
      for (double t : ticks) {
        int y = y(t, yMax, plotBottom);
        g.setColor(new Color(0xe2e8f0));
        g.drawLine(LEFT, y, plotRight, y);
        g.setColor(Color.DARK_GRAY);
        String label = BenchReport.number(t);
        g.drawString(label, LEFT - 8 - fm.stringWidth(label), y + fm.getAscent() / 2 - 1);
      }
      g.setColor(Color.BLACK);
      g.drawLine(LEFT, TOP, LEFT, plotBottom);
      g.drawLine(LEFT, plotBottom, plotRight, plotBottom);

      int groupWidth = (plotRight - LEFT) / rows.size();
      for (int i = 0; i < rows.size(); i++) {
        BenchReport.Row r = rows.get(i);
        int x0 = LEFT + i * groupWidth;
        int bar = Math.min(60, groupWidth / 3);
        boolean two = r.baseline().isPresent();
        int xFigure = two ? x0 + groupWidth / 2 - bar - 4 : x0 + (groupWidth - bar) / 2;
        bar(g, xFigure, bar, r.value(), yMax, plotBottom, FIGURE);
        if (two) {
          bar(g, x0 + groupWidth / 2 + 4, bar, r.baseline().get(), yMax, plotBottom, BASELINE);
        }
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        List<String> lines = wrap(r.spec().label(), g.getFontMetrics(), groupWidth - 10);
        if (r.ratio().isPresent()) {
          lines.add(String.format(java.util.Locale.ROOT, "ratio %.2f×", r.ratio().get().median()));
        }
        int ly = plotBottom + 16;
        for (String line : lines.subList(0, Math.min(lines.size(), 6))) {
          g.drawString(line, x0 + (groupWidth - g.getFontMetrics().stringWidth(line)) / 2, ly);
          ly += 14;
        }
      }
    } finally {
      g.dispose();
    }
    return image;
  }

  private static void legend(Graphics2D g, int x, int y) {
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.setColor(FIGURE);
    g.fillRect(x, y - 10, 12, 12);
    g.setColor(Color.BLACK);
    g.drawString("figure", x + 16, y);
    g.setColor(BASELINE);
    g.fillRect(x + 80, y - 10, 12, 12);
    g.setColor(Color.BLACK);
    g.drawString("baseline (same run)", x + 96, y);
  }

  private static void bar(
      Graphics2D g, int x, int w, Spread s, double yMax, int bottom, Color color) {
    int yMedian = y(s.median(), yMax, bottom);
    g.setColor(color);
    g.fillRect(x, yMedian, w, Math.max(1, bottom - yMedian));
    g.setColor(Color.BLACK);
    g.setStroke(new BasicStroke(1.5f));
    int cx = x + w / 2;
    int yMin = y(s.min(), yMax, bottom);
    int yTop = y(s.max(), yMax, bottom);
    g.drawLine(cx, yMin, cx, yTop);
    g.drawLine(cx - 6, yMin, cx + 6, yMin);
    g.drawLine(cx - 6, yTop, cx + 6, yTop);
    g.setStroke(new BasicStroke(1f));
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
    String label = BenchReport.number(s.median());
    g.drawString(
        label, cx - g.getFontMetrics().stringWidth(label) / 2, Math.min(yTop, yMedian) - 4);
  }

  private static int y(double v, double yMax, int bottom) {
    return bottom - (int) Math.round(v / yMax * PLOT_HEIGHT);
  }

  /** Round tick values from 0 to at least {@code top}: steps of 1, 2 or 5 times a power of ten. */
  static double[] ticks(double top) {
    if (!(top > 0)) {
      return new double[] {0, 1};
    }
    double raw = top / 5;
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    double step =
        raw / magnitude <= 1
            ? magnitude
            : raw / magnitude <= 2
                ? 2 * magnitude
                : raw / magnitude <= 5 ? 5 * magnitude : 10 * magnitude;
    int n = (int) Math.ceil(top / step - 1e-9);
    double[] ticks = new double[n + 1];
    for (int i = 0; i <= n; i++) {
      ticks[i] = i * step;
    }
    return ticks;
  }

  private static List<String> wrap(String text, FontMetrics fm, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      if (line.length() > 0 && fm.stringWidth(line + " " + word) > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    if (line.length() > 0) {
      lines.add(line.toString());
    }
    return lines;
  }
}
