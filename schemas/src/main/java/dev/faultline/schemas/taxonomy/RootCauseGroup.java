package dev.faultline.schemas.taxonomy;

/**
 * Whether a root cause is one of the general DL-framework causes or specific to distributed
 * execution.
 */
public enum RootCauseGroup {
  GENERAL,
  DISTRIBUTED
}
