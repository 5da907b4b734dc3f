package dev.faultline.stats.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ReleaseDayKeys}: every key is {@code release + "@" + day}, whatever the table held before
 * (many more releases and days than slots, equal releases as other instances, negative days), and a
 * key asked for again right away is the same instance.
 */
class ReleaseDayKeysTest {
  @Test
  void everyKeyIsTheReleaseAtTheDayAndARepeatIsTheSameInstance() {
    Random r = new Random(34);
    ReleaseDayKeys keys = new ReleaseDayKeys();
    String[] releases = new String[300];
    for (int i = 0; i < releases.length; i++) {
      releases[i] = i % 7 == 0 ? "v1.é" + i : "1." + i;
    }
    for (int trial = 0; trial < 200_000; trial++) {
      String release = releases[r.nextInt(releases.length)];
      if (r.nextBoolean()) {
        release = new String(release); // equal, another instance
      }
      long day = r.nextInt(5) == 0 ? -r.nextInt(40) : 20_000 + r.nextInt(400);
      String key = keys.of(release, day);
      assertEquals(release + "@" + day, key, "trial " + trial);
      assertSame(key, keys.of(new String(release), day), "asked again, trial " + trial);
    }
  }
}
