package dev.faultline.classifier.cli;

import picocli.CommandLine.Option;

/** {@code --model FILE} of {@code classify} and {@code eval}: the learned tier's artefact. */
final class ModelFlag {
  @Option(
      names = "--model",
      paramLabel = "FILE",
      description = "a learned-model artefact written by train (default: the committed one)")
  String model;
}
