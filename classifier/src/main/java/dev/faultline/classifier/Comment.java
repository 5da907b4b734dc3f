package dev.faultline.classifier;

/**
 * One comment of an issue thread.
 *
 * @param author the commenter's login, may be empty
 * @param maintainer whether the author is a maintainer of the repository (their diagnosis counts as
 *     root-cause evidence)
 * @param body the comment text, never null
 */
public record Comment(String author, boolean maintainer, String body) {
  public Comment {
    author = author == null ? "" : author;
    body = body == null ? "" : body;
  }
}
