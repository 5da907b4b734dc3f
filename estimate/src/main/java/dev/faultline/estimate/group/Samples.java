package dev.faultline.estimate.group;

import dev.faultline.estimate.item.Item;
import dev.faultline.estimate.item.ItemModel;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.List;
import java.util.Map;

/**
 * An item's cell by the validation sample's labels. An item a person labelled with another kind
 * counts as that kind (outside the family when a kind is asked for; for a bug-only dimension its
 * code is then "does not apply"), whatever fields were left empty; a drawn item whose needed labels
 * are empty is unlabelled for the family ({@link Family#MISSING}), never silently dropped.
 */
final class Samples {
  private Samples() {}

  /**
   * The item's slot in a family.
   *
   * @param codes the family's cells (the second dimension's codes for a pair)
   * @param a for a pair, the index of the first dimension's code the family is of; -1 otherwise
   */
  static int label(Item item, GroupedEstimator.Spec spec, List<String> codes, int a) {
    Map<String, String> sample = item.sample();
    if (sample == null) {
      return item.drawn() ? Family.MISSING : Family.NOT_SAMPLED;
    }
    String kind = sample.get(Dimension.KIND.key());
    if (kind == null) {
      return Family.MISSING;
    }
    int outside = codes.size();
    if (spec.kind() != null && !spec.kind().equals(kind)) {
      return outside;
    }
    String first = code(sample, spec.dimension(), kind);
    if (first == null) {
      return Family.MISSING;
    }
    if (a < 0) {
      return codes.indexOf(first);
    }
    if (!first.equals(spec.dimension().distributionCodes().get(a))) {
      return outside;
    }
    String second = code(sample, spec.pair(), kind);
    if (second == null) {
      return Family.MISSING;
    }
    if (spec.third() == null) {
      return codes.indexOf(second);
    }
    String third = code(sample, spec.third(), kind);
    return third == null ? Family.MISSING : codes.indexOf(second + "|" + third);
  }

  /** A person's code of a dimension, given their kind (null: left empty or not a code). */
  static String code(Map<String, String> sample, Dimension d, String kind) {
    if (ItemModel.bugOnly(d) && !"BUG".equals(kind)) {
      return Item.notApplicable(d);
    }
    String code = sample.get(d.key());
    return code != null && d.distributionCodes().contains(code) ? code : null;
  }
}
