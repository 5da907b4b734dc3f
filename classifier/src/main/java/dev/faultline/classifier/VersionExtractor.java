package dev.faultline.classifier;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the versions of the framework and its dependencies as users state them: environment
 * sections ("Python version: 3.10"), {@code pip freeze}/{@code pip list} lines, {@code ds_report}
 * fields, "torch 2.1.0+cu118", nvidia-smi's "CUDA Version: 12.2", NCCL banners ("NCCL version
 * 2.18.1+cuda12.1") and container image tags. Keys are lower-case component names ({@code torch},
 * {@code cuda}, {@code nccl}, {@code python}, ...), values are as written without a leading "v".
 * Versions that appear only inside file or install paths ({@code /usr/lib/python3.10/...}, {@code
 * DeepSpeed-0.7.3\setup.py}) are ignored. The first mention of a component wins. Stateless and
 * thread-safe.
 */
public final class VersionExtractor {

  /** Component aliases, longest first so that "torch cuda" beats "torch"; each maps to its key. */
  private static final String[][] ALIASES = {
    {"torch.__version__", "torch"},
    {"deepspeed.__version__", "deepspeed"},
    {"transformers.__version__", "transformers"},
    {"cuda used to build pytorch", "cuda"},
    {"nccl_version", "nccl"},
    {"pytorch-lightning", "lightning"},
    {"pytorch lightning", "lightning"},
    {"lightning", "lightning"},
    {"megatron-core", "megatron-core"},
    {"megatron_core", "megatron-core"},
    {"megatron core", "megatron-core"},
    {"megatron-lm", "megatron-lm"},
    {"torch cuda", "cuda"},
    {"cuda toolkit", "cuda"},
    {"cuda runtime", "cuda"},
    {"cudatoolkit", "cudatoolkit"},
    {"nvcc", "cuda"},
    {"nvidia driver", "driver"},
    {"driver", "driver"},
    {"cuda", "cuda"},
    {"deepspeed", "deepspeed"},
    {"pytorch", "torch"},
    {"torch", "torch"},
    {"nccl", "nccl"},
    {"python", "python"},
    {"transformers", "transformers"},
    {"colossalai", "colossalai"},
    {"colossal-ai", "colossalai"},
    {"vllm", "vllm"},
    {"horovod", "horovod"},
    {"apex", "apex"},
    {"flash-attention", "flash-attn"},
    {"flash_attn", "flash-attn"},
    {"flash-attn", "flash-attn"},
    {"flash attn", "flash-attn"},
    {"flash attention", "flash-attn"},
    {"triton", "triton"},
    {"rocm", "rocm"},
    {"tensorflow", "tensorflow"},
    {"accelerate", "accelerate"},
    {"openmpi", "openmpi"},
    {"open mpi", "openmpi"},
  };

  private static final Map<String, String> KEY_OF_ALIAS;

  /**
   * Aliases by their first character, in table order (the order a regex alternation would try
   * them).
   */
  private static final String[][] ALIASES_BY_FIRST_CHAR = new String[128][];

  /**
   * What follows an alias: not more of a word; an optional quote and qualifier ("version",
   * "(GPU?)"); a separator; the version (group 1), not followed by more of a word, a path or a
   * backslash. Quantifiers are bounded and the classes disjoint, so one attempt is linear in what
   * it reads.
   */
  private static final Pattern AFTER_ALIAS =
      Pattern.compile(
          "(?![a-z_])[`'\"*]{0,2}(?:[ \\t]{0,40}(?:version|ver\\.?|info|release)(?:[ \\t]{0,4}\\([^)\\n]{1,20}\\))?"
              // "the cuda version of `nvcc -V` is 11.3": where it was read, then " is"
              + "(?:[ \\t]{1,4}(?:of|on|in|from|reported by)[ \\t][^\\n]{1,40}?(?=[ \\t]is\\b))?"
              + "[`'\"*]{0,3})?"
              + "[ \\t]{0,40}(?:==|>=|~=|:-|:|=|-|\\bis\\b|\\bv(?=\\d))?[ \\t.:]{0,60}[`'\"*]{0,3}v?"
              + "((?:[\u2265\u2264][ \\t]?)?\\d{1,4}(?:\\.\\d{1,6}){1,4}(?:[-+.]?[a-z0-9]{1,24}){0,6})"
              + "(?![a-z0-9_]|/[a-z_]|\\\\)");

  private static final Pattern IMAGE =
      Pattern.compile(
          "(?<![\\w/])(nvcr\\.io/[a-z0-9_./-]+):([0-9][a-z0-9_.\\-]*)", Pattern.CASE_INSENSITIVE);

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    Map<Character, java.util.List<String>> byFirst = new java.util.TreeMap<>();
    for (String[] a : ALIASES) {
      keys.put(a[0], a[1]);
      byFirst.computeIfAbsent(a[0].charAt(0), c -> new java.util.ArrayList<>()).add(a[0]);
    }
    KEY_OF_ALIAS = Map.copyOf(keys);
    byFirst.forEach((c, list) -> ALIASES_BY_FIRST_CHAR[c] = list.toArray(new String[0]));
  }

  /** Versions stated in a text, component to version, in order of first mention. */
  public Map<String, String> extract(CharSequence text) {
    Map<String, String> out = new LinkedHashMap<>();
    if (text == null) {
      return out;
    }
    String s = text.toString();
    int start = 0;
    int n = s.length();
    while (start < n) {
      int end = s.indexOf('\n', start);
      if (end < 0) {
        end = n;
      }
      if (hasDottedNumber(s, start, end)) {
        scanLine(s.substring(start, end), out);
      }
      start = end + 1;
    }
    scanFrameworkLines(s, out);
    scanPipShow(s, out);
    return out;
  }

  private static boolean hasDottedNumber(String s, int from, int to) {
    for (int i = from + 1; i < to - 1; i++) {
      if (s.charAt(i) == '.' && isDigit(s.charAt(i - 1)) && isDigit(s.charAt(i + 1))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * "Framework: TensorFlow" then "Framework version: 2.4.0" (Horovod's template): the name is on
   * the line before.
   */
  private static final Pattern FRAMEWORK_NAME =
      Pattern.compile("\\bframework[ \\t]{0,4}:[ \\t]{0,8}([a-z][a-z0-9_.-]{1,30})[ \\t]*$");

  private static final Pattern FRAMEWORK_VERSION =
      Pattern.compile(
          "\\bframework[ \\t]{1,4}version[ \\t]{0,4}:[ \\t]{0,8}v?(\\d{1,4}(?:\\.\\d{1,6}){1,4}[a-z0-9.+-]{0,24})");

  /** "1.13+cuda11.6" after torch: the torch version and the CUDA it was built with. */
  private static final Pattern TORCH_PLUS_CUDA =
      Pattern.compile("(\\d{1,4}(?:\\.\\d{1,6}){1,4})\\+cuda(\\d{1,3}(?:\\.\\d{1,3}){1,2})");

  /** {@code pip show}: "Name: deepspeed" then "Version: 0.12.6". */
  private static final Pattern PIP_SHOW_NAME =
      Pattern.compile("^[ \\t]{0,8}name:[ \\t]{0,8}([a-z][a-z0-9_.-]{1,30})[ \\t]*$");

  private static final Pattern PIP_SHOW_VERSION =
      Pattern.compile(
          "^[ \\t]{0,8}version:[ \\t]{0,8}v?(\\d{1,4}(?:\\.\\d{1,6}){1,4}[a-z0-9.+-]{0,24})");

  private static void scanPipShow(String s, Map<String, String> out) {
    scanNameThenVersion(
        s,
        "ame:",
        null,
        PIP_SHOW_NAME,
        PIP_SHOW_VERSION,
        name -> {
          String key = KEY_OF_ALIAS.get(name.replace('_', '-'));
          return key != null ? key : KEY_OF_ALIAS.get(name); // only components the taxonomy names
        },
        out);
  }

  private static void scanFrameworkLines(String s, Map<String, String> out) {
    scanNameThenVersion(
        s,
        "ramework",
        "framework",
        FRAMEWORK_NAME,
        FRAMEWORK_VERSION,
        name -> KEY_OF_ALIAS.getOrDefault(name, name),
        out);
  }

  /**
   * Two-line templates: a line that names a component ({@code namePattern} group 1) directly
   * followed by one that gives its version ({@code versionPattern} group 1). With a {@code
   * lineMarker}, only lines containing it count as lines of the template. {@code keyOf} maps the
   * lower-case name to a key, or to null to ignore it.
   */
  private static void scanNameThenVersion(
      String s,
      String present,
      String lineMarker,
      Pattern namePattern,
      Pattern versionPattern,
      java.util.function.UnaryOperator<String> keyOf,
      Map<String, String> out) {
    if (s.indexOf(present) < 0) {
      return;
    }
    String lower = asciiLower(s);
    String name = null;
    int start = 0;
    int n = lower.length();
    while (start < n) {
      int end = lower.indexOf('\n', start);
      if (end < 0) {
        end = n;
      }
      String line = lower.substring(start, end);
      if (lineMarker == null || line.contains(lineMarker)) {
        Matcher v = versionPattern.matcher(line);
        if (name != null && v.find()) {
          String key = keyOf.apply(name);
          if (key != null) {
            out.putIfAbsent(key, s.substring(start + v.start(1), start + v.end(1)));
          }
          name = null;
        } else {
          Matcher m = namePattern.matcher(line);
          name = m.find() ? m.group(1) : null;
        }
      }
      start = end + 1;
    }
  }

  /** A character before which an alias is part of a word, path, URL, option or "+cuda" suffix. */
  private static boolean joinsAlias(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || "_./\\+=@-".indexOf(c) >= 0;
  }

  /**
   * Every "alias [qualifier] [separator] version" in a line, left to right, like {@code find()} of
   * one pattern "(alias1|alias2|...)rest" would report them, but the aliases are looked up by first
   * character at word starts instead of tried by the regex engine at every position: the rest of
   * the pattern only runs where an alias is.
   */
  private static void scanLine(String line, Map<String, String> out) {
    String lower = asciiLower(line);
    Matcher m = AFTER_ALIAS.matcher(lower);
    m.useTransparentBounds(true).useAnchoringBounds(false);
    int n = lower.length();
    int i = 0;
    while (i < n) {
      char ch = lower.charAt(i);
      String[] candidates = ch < 128 ? ALIASES_BY_FIRST_CHAR[ch] : null;
      if (candidates == null || (i > 0 && joinsAlias(lower.charAt(i - 1)))) {
        i++;
        continue;
      }
      String alias = null;
      for (String a : candidates) {
        if (lower.startsWith(a, i) && m.region(i + a.length(), n).lookingAt()) {
          alias = a;
          break;
        }
      }
      if (alias == null) {
        i++;
        continue;
      }
      String key = KEY_OF_ALIAS.get(alias);
      String value = line.substring(m.start(1), m.end(1));
      i = Math.max(m.end(), i + 1);
      // "0.18.5/0.18.6": keep alternatives the user wrote side by side
      int after = m.end(1);
      if (after + 1 < line.length()
          && line.charAt(after) == '/'
          && isDigit(line.charAt(after + 1))) {
        Matcher alt = ALT_VALUE.matcher(line).region(after + 1, line.length());
        if (alt.lookingAt()) {
          value = value + "/" + alt.group();
        }
      }
      value = stripFileSuffix(value);
      if ("torch".equals(key)) {
        Matcher tc = TORCH_PLUS_CUDA.matcher(value);
        if (tc.matches()) {
          value = tc.group(1);
          out.putIfAbsent("cuda", tc.group(2));
        }
      }
      String earlier = out.get(key);
      // first mention wins, unless a later one states the same version more precisely ("1.12" then
      // "1.12.1")
      if (earlier == null
          || (value.startsWith(earlier)
              && value.length() > earlier.length()
              && value.charAt(earlier.length()) == '.')) {
        out.put(key, value);
      }
    }
    // both patterns start at a literal: look for it first instead of letting find() try the regex
    // at every position
    if (lower.contains("libnccl")) {
      Matcher pkg = NCCL_PACKAGE.matcher(lower);
      if (pkg.find()) {
        out.putIfAbsent("nccl", line.substring(pkg.start(1), pkg.end(1)));
      }
    }
    if (lower.contains("nvcr.io/")) {
      Matcher img = IMAGE.matcher(line);
      while (img.find()) {
        out.putIfAbsent(img.group(1).toLowerCase(java.util.Locale.ROOT), img.group(2));
      }
    }
  }

  /** A distribution's NCCL package pin, as NGC images list it: "libnccl2=2.6.4-1+cuda10.0". */
  private static final Pattern NCCL_PACKAGE =
      Pattern.compile(
          "\\blibnccl(?:2|-dev)?=(\\d{1,3}(?:\\.\\d{1,4}){1,3}(?:-\\d{1,3})?(?:\\+cuda\\d{1,3}(?:\\.\\d{1,3})?)?)");

  private static final String[] FILE_SUFFIXES = {".tar", ".whl", ".zip", ".gz", ".py", ".egg"};

  /** "0.15.2.tar.gz" as written in an archive name is version "0.15.2". */
  private static String stripFileSuffix(String value) {
    for (String suffix : FILE_SUFFIXES) {
      int i = value.indexOf(suffix);
      if (i > 0) {
        value = value.substring(0, i);
      }
    }
    return value;
  }

  private static final Pattern ALT_VALUE = Pattern.compile("\\d{1,4}(?:\\.\\d{1,6}){1,4}");

  /** Lower-cases ASCII letters only, so indices stay aligned with the original. */
  static String asciiLower(String s) {
    char[] c = s.toCharArray();
    for (int i = 0; i < c.length; i++) {
      if (c[i] >= 'A' && c[i] <= 'Z') {
        c[i] = (char) (c[i] + 32);
      }
    }
    return new String(c);
  }
}
