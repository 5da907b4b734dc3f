package dev.faultline.schemas.taxonomy;

/** The dimensions of the defect taxonomy, with their key in the taxonomy resource. */
public enum TaxonomyDimension {
  KIND("kind"),
  SYMPTOM_CLASS("symptomClass"),
  SYMPTOM("symptom"),
  ROOT_CAUSE("rootCause"),
  FIX_PATTERN("fixPattern"),
  STAGE("stage"),
  PHASE("phase");

  private final String key;

  TaxonomyDimension(String key) {
    this.key = key;
  }

  /** The key of this dimension under {@code dimensions} in the resource. */
  public String key() {
    return key;
  }
}
