package dev.faultline.classifier.learned;

import java.util.Map;
import java.util.Set;

/**
 * What the learned layer reads of one item before any vocabulary is chosen: the text's vector,
 * named numeric features (the rules' answers and cue counts, item shape), and bags of words by
 * source. Built once per item by {@link FeatureExtractor}; a {@link Vectorizer} fitted on training
 * items turns it into a sparse vector.
 *
 * @param embedding the encoder's vector of the item's text
 * @param fixed named features with their values (rules, cues, sizes)
 * @param titleWords words of the title with counts
 * @param bodyWords words of the opening post and comments with counts
 * @param diffAdded words of added diff lines with counts
 * @param diffRemoved words of removed diff lines with counts
 * @param tokens GitHub labels and path features (directories, extensions), each present once
 */
public record RawFeatures(
    float[] embedding,
    Map<String, Double> fixed,
    Map<String, Integer> titleWords,
    Map<String, Integer> bodyWords,
    Map<String, Integer> diffAdded,
    Map<String, Integer> diffRemoved,
    Set<String> tokens) {}
