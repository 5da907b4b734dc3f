package dev.faultline.stats.functions;

/**
 * The detector's release-report state keys ({@code release@day}), kept in a small direct-mapped
 * table so the records of a release and day meet the same {@code String}: no concatenation, no
 * re-hash (a string caches its hash) and the state map's key comparison returns at its identity
 * check. A miss only builds the key anew, so what a key reads never depends on the table.
 */
final class ReleaseDayKeys {
  /** Entries of the table (a power of 2). */
  static final int SLOTS = 1024;

  private final String[] releases = new String[SLOTS];
  private final long[] days = new long[SLOTS];
  private final String[] keys = new String[SLOTS];

  /** The state key of {@code release}'s reports of {@code day}: {@code release + "@" + day}. */
  String of(String release, long day) {
    int slot = (31 * release.hashCode() + Long.hashCode(day)) & (SLOTS - 1);
    String r = releases[slot];
    if (days[slot] == day && r != null && (r == release || r.equals(release))) {
      return keys[slot];
    }
    String key = release + "@" + day;
    releases[slot] = release;
    days[slot] = day;
    keys[slot] = key;
    return key;
  }
}
