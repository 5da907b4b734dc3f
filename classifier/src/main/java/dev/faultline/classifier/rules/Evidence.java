package dev.faultline.classifier.rules;

import dev.faultline.classifier.Comment;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.LinkedPullRequest;
import dev.faultline.classifier.internal.Cue;
import dev.faultline.classifier.internal.CueMatcher;
import dev.faultline.classifier.internal.Features;
import dev.faultline.classifier.internal.TextIndex;
import dev.faultline.classifier.internal.Tokenizer;
import dev.faultline.classifier.internal.ToolReport;
import dev.faultline.classifier.internal.Zone;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What every dimension's rule reads about one issue or pull request: the text by zone, the cues
 * found in it, and a few facts decided once. Built once per classification by {@link #gather};
 * immutable.
 *
 * @param in the input
 * @param f the cues found, counted per zone
 * @param index the tokens per zone
 * @param pr whether the input is a merged pull request itself
 * @param mergedFix whether it is, or links, a merged pull request
 * @param tag the title's leading tag ({@code [BUG]}, {@code 【Feature】}), lower case, or empty
 * @param allText title, body and comments, one per line: where the framework and versions are
 *     looked for
 */
public record Evidence(
    IssueText in,
    Features f,
    TextIndex index,
    boolean pr,
    boolean mergedFix,
    String tag,
    String allText) {

  static final Pattern TITLE_TAG = Pattern.compile("^\\s*[\\[【(]\\s*([^\\]】)]{1,40}?)\\s*[\\]】)]");

  /** Indexes the input's zones and matches every cue. */
  public static Evidence gather(IssueText in, Tokenizer tokenizer, CueMatcher matcher) {
    boolean pr = in.isMergedPullRequest();
    TextIndex index = new TextIndex();
    index.add(pr ? Zone.PR_TITLE : Zone.TITLE, in.title(), tokenizer);
    index.add(pr ? Zone.PR_BODY : Zone.BODY, ToolReport.withoutFixedLines(in.body()), tokenizer);
    StringBuilder all = new StringBuilder(in.title().length() + in.body().length() + 64);
    all.append(in.title()).append('\n').append(in.body());
    for (Comment c : in.comments()) {
      index.add(
          c.maintainer() ? Zone.MAINTAINER_COMMENT : Zone.COMMENT,
          ToolReport.withoutFixedLines(c.body()),
          tokenizer);
      all.append('\n').append(c.body());
    }
    boolean mergedFix = pr;
    for (LinkedPullRequest p : in.pullRequests()) {
      index.add(Zone.PR_TITLE, p.title(), tokenizer);
      index.add(Zone.PR_BODY, p.body(), tokenizer);
      mergedFix |= p.merged();
    }
    Features f = matcher.match(index);
    return new Evidence(in, f, index, pr, mergedFix, titleTag(in.title()), all.toString());
  }

  private static String titleTag(String title) {
    Matcher m = TITLE_TAG.matcher(title);
    return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : "";
  }

  /** Whether the title's tag starts with one of the prefixes. */
  static boolean tagIs(String tag, String... prefixes) {
    for (String p : prefixes) {
      if (tag.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /** The first phrase that matched the cue, or "symptom words". */
  static String firstOf(Features f, Cue cue) {
    String p = f.phrase(cue);
    return p == null ? "symptom words" : p;
  }

  /** Cue name to its count in the title, opening post and pull-request text (non-zero only). */
  public Map<String, Integer> reporterCues() {
    Map<String, Integer> out = new HashMap<>();
    for (Cue cue : Cue.values()) {
      int r = f.reporter(cue);
      if (r > 0) {
        out.put(cue.name(), r);
      }
    }
    return out;
  }

  /** Cue name to its count in the comments (non-zero only). */
  public Map<String, Integer> threadCues() {
    Map<String, Integer> out = new HashMap<>();
    for (Cue cue : Cue.values()) {
      int t = f.count(cue, Zone.COMMENT) + f.count(cue, Zone.MAINTAINER_COMMENT);
      if (t > 0) {
        out.put(cue.name(), t);
      }
    }
    return out;
  }
}
