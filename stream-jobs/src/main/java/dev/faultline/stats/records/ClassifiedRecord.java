package dev.faultline.stats.records;

import dev.faultline.jobs.common.Rejected;

/**
 * One record of {@code faultline.issues.classified} as the source read it: the decoded event, or,
 * for a value that does not decode, the record given up on with the reason. Exactly one of the two
 * is set. A Flink POJO.
 */
public class ClassifiedRecord {
  public ClassifiedEvent event;
  public Rejected rejected;

  public ClassifiedRecord() {}

  public static ClassifiedRecord of(ClassifiedEvent event) {
    ClassifiedRecord r = new ClassifiedRecord();
    r.event = event;
    return r;
  }

  public static ClassifiedRecord rejected(Rejected rejected) {
    ClassifiedRecord r = new ClassifiedRecord();
    r.rejected = rejected;
    return r;
  }
}
