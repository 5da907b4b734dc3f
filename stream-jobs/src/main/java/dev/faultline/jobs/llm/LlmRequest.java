package dev.faultline.jobs.llm;

import dev.faultline.jobs.classify.IssueAccumulator;
import dev.faultline.jobs.records.ClassifiedIssueEvent;

/**
 * An issue's offline classification and what the classifier read, for the language-model tier to
 * upgrade: the accumulator is the issue's state when it was classified (the item the model reads is
 * built from it).
 */
public class LlmRequest {
  public ClassifiedIssueEvent offline;
  public IssueAccumulator issue;

  public LlmRequest() {}

  public LlmRequest(ClassifiedIssueEvent offline, IssueAccumulator issue) {
    this.offline = offline;
    this.issue = issue;
  }
}
