package dev.faultline.jobs.records;

import dev.faultline.graph.IssueRow;
import java.util.ArrayList;
import java.util.List;

/** An issue's new classification, with what the topic record needs besides the graph row. */
public class ClassifiedIssueEvent {
  public IssueRow row;
  public String deliveryId;
  public List<String> fixingPullRequests = new ArrayList<>();

  public ClassifiedIssueEvent() {}

  public ClassifiedIssueEvent(IssueRow row, String deliveryId, List<String> fixingPullRequests) {
    this.row = row;
    this.deliveryId = deliveryId;
    this.fixingPullRequests = new ArrayList<>(fixingPullRequests);
  }
}
