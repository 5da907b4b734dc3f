package dev.faultline.jobs.records;

import java.util.ArrayList;
import java.util.List;

/**
 * What one delivery says about one issue: its state as of {@code updatedAt}. A Flink POJO (public
 * fields, no-arg constructor) so it travels between operators without Kryo.
 */
public class IssueEvent {
  /** {@code owner/repo#n} */
  public String id;

  public String repo;
  public int number;
  public String deliveryId;
  public String event;
  public String action;
  public String title;
  public String body;

  /** open, closed or deleted */
  public String state;

  public String url;
  public String author;
  public List<String> labels = new ArrayList<>();
  public long createdAt;
  public long updatedAt;
  public Long closedAt;

  /** GitHub's comment count of the issue, when the payload gives it. */
  public Integer comments;

  /** The new id when the issue was transferred to another repository. */
  public String transferredTo;

  public IssueEvent() {}

  @Override
  public String toString() {
    return "IssueEvent{"
        + id
        + " "
        + event
        + "/"
        + action
        + " updatedAt="
        + updatedAt
        + " delivery="
        + deliveryId
        + "}";
  }
}
