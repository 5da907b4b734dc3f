package dev.faultline.infra.bench;

import java.util.Random;

/** Invented issue texts of realistic shape and size for benchmarks (not copies of real issues). */
public final class SyntheticIssues {
  private static final String[] TITLES = {
    "Training hangs in all_reduce after %d steps with ZeRO-%d",
    "CUDA out of memory when enabling offload on %d GPUs",
    "NCCL error: unhandled system error during init_process_group (world size %d)",
    "Loss becomes NaN after resuming from checkpoint at step %d",
    "Pipeline parallel schedule deadlocks with %d micro-batches",
    "Throughput drops %d%% after upgrading to the new release",
    "ImportError: undefined symbol when importing the fused Adam op (%d)",
    "Checkpoint conversion fails for tensor parallel size %d",
  };
  private static final String[] LINES = {
    "We launch with the deepspeed launcher on %d nodes and the job stops making progress.",
    "torch.distributed.DistBackendError: NCCL error in ProcessGroupNCCL.cpp:%d",
    "The watchdog caught collective operation timeout after %d milliseconds.",
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate %d.00 MiB",
    "File \"engine.py\", line %d, in step",
    "deepspeed %d.14.2, torch 2.3.0+cu121, CUDA Version: 12.1, NCCL version 2.20.5",
    "Setting the bucket size to %d did not change anything.",
    "Reproduces with the example script and the default config, %d out of 10 runs.",
  };

  private final Random random;

  public SyntheticIssues(long seed) {
    this.random = new Random(seed);
  }

  public String title() {
    return TITLES[random.nextInt(TITLES.length)].formatted(
        1 + random.nextInt(512), 1 + random.nextInt(3));
  }

  /** A body of about {@code bytes} characters. */
  public String body(int bytes) {
    StringBuilder b = new StringBuilder(bytes + 200);
    while (b.length() < bytes) {
      b.append(LINES[random.nextInt(LINES.length)].formatted(1 + random.nextInt(5000)))
          .append('\n');
    }
    return b.toString();
  }
}
