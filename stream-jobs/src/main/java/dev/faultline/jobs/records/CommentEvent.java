package dev.faultline.jobs.records;

/** A comment on an issue, as the classifier needs it. */
public class CommentEvent {
  public long commentId;
  public String author;

  /** The author is the repository's owner, a member or a collaborator. */
  public boolean maintainer;

  public String body;
  public long createdAt;
  public long updatedAt;

  /** The comment was deleted. */
  public boolean deleted;

  public CommentEvent() {}
}
