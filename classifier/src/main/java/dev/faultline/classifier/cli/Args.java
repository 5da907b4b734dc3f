package dev.faultline.classifier.cli;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Minimal {@code --name value} / {@code --flag} parsing for the batch commands. */
public record Args(Map<String, String> values, boolean help) {

  public static Args parse(String[] args, String... known) {
    return parse(args, Set.of(), known);
  }

  public static Args parse(String[] args, Set<String> flags, String... known) {
    Map<String, String> v = new HashMap<>();
    boolean help = false;
    List<String> names = List.of(known);
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        help = true;
      } else if (flags.contains(a)) {
        v.put(a, "true");
      } else if (names.contains(a)) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("option " + a + " needs a value");
        }
        v.put(a, args[++i]);
      } else {
        throw new IllegalArgumentException("unknown argument '" + a + "'");
      }
    }
    return new Args(Map.copyOf(v), help);
  }

  public String get(String name) {
    return values.get(name);
  }

  public boolean flag(String name) {
    return values.containsKey(name);
  }
}
