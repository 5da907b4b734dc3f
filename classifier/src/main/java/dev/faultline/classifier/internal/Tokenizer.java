package dev.faultline.classifier.internal;

import java.util.function.Consumer;

/**
 * Splits text into lower-case word tokens: runs of ASCII letters, digits and underscores, other
 * letters and digits; each CJK ideograph is a token of its own (so Chinese phrases match character
 * by character). Stateless.
 */
public final class Tokenizer {

  /** Calls {@code sink} with every token of {@code text}, in order. */
  public void tokenize(String text, Consumer<String> sink) {
    int n = text.length();
    char[] buf = new char[64];
    int len = 0;
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c < 128) {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') {
          buf = append(buf, len++, c);
          continue;
        }
        if (c >= 'A' && c <= 'Z') {
          buf = append(buf, len++, (char) (c + 32));
          continue;
        }
        // apostrophes inside words ("doesn't") are dropped so the word stays one token
        if (c == '\'' && len > 0 && i + 1 < n && Character.isLetter(text.charAt(i + 1))) {
          continue;
        }
      } else if (isIdeograph(c)) {
        if (len > 0) {
          sink.accept(new String(buf, 0, len));
          len = 0;
        }
        sink.accept(String.valueOf(c));
        continue;
      } else if (Character.isLetterOrDigit(c)) {
        buf = append(buf, len++, Character.toLowerCase(c));
        continue;
      }
      if (len > 0) {
        sink.accept(new String(buf, 0, len));
        len = 0;
      }
    }
    if (len > 0) {
      sink.accept(new String(buf, 0, len));
    }
  }

  /** Number of tokens in {@code text}; the tokenise-only baseline of the benchmark. */
  public int count(String text) {
    int[] n = {0};
    tokenize(text, t -> n[0]++);
    return n[0];
  }

  private static char[] append(char[] buf, int at, char c) {
    if (at == buf.length) {
      buf = java.util.Arrays.copyOf(buf, buf.length * 2);
    }
    buf[at] = c;
    return buf;
  }

  private static boolean isIdeograph(char c) {
    return (c >= '\u4e00' && c <= '\u9fff') || (c >= '\u3400' && c <= '\u4dbf');
  }
}
