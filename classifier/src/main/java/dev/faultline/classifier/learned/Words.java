package dev.faultline.classifier.learned;

import java.util.Map;

/**
 * Lower-case words of 2 to 30 letters, digits and underscores that hold a letter: the bag-of-words
 * tokens.
 */
public final class Words {
  private Words() {}

  public static void count(String text, Map<String, Integer> into) {
    if (text == null) {
      return;
    }
    int n = text.length();
    int i = 0;
    StringBuilder w = new StringBuilder(32);
    while (i < n) {
      char ch = text.charAt(i);
      if (Character.isLetterOrDigit(ch) || ch == '_') {
        w.setLength(0);
        boolean letter = false;
        while (i < n) {
          char c = text.charAt(i);
          if (!(Character.isLetterOrDigit(c) || c == '_')) {
            break;
          }
          letter |= Character.isLetter(c);
          if (w.length() < 31) {
            w.append(Character.toLowerCase(c));
          }
          i++;
        }
        if (letter && w.length() >= 2 && w.length() <= 30) {
          into.merge(w.toString(), 1, Integer::sum);
        }
      } else {
        i++;
      }
    }
  }
}
