package dev.faultline.classifier.internal;

/**
 * Where in an issue thread a word occurs; rules weigh a title word more than a word deep in a
 * comment.
 */
public enum Zone {
  TITLE,
  BODY,
  COMMENT,
  MAINTAINER_COMMENT,
  PR_TITLE,
  PR_BODY
}
