package dev.faultline.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ErrorLinesTest {

  @Test
  void takesTheExceptionLineThatEndsTheFirstTraceback() {
    String body =
        """
        Training stops after the first step.
        ```
        Traceback (most recent call last):
          File "train.py", line 12, in <module>
            engine.step()
          File "/opt/lib/engine.py", line 88, in step
            self.optimizer.step()
        AttributeError: 'ZeroOptimizer' object has no attribute 'bucket'
        ```
        Later a second one:
        Traceback (most recent call last):
          File "eval.py", line 3, in <module>
        ValueError: not this one
        """;
    assertEquals(
        "AttributeError: 'ZeroOptimizer' object has no attribute 'bucket'", ErrorLines.of(body));
  }

  @Test
  void dropsRankAndHostPrefixesAndKeepsChainedExceptionsOfTheSameTraceback() {
    String body =
        """
        [rank1]: Traceback (most recent call last):
        [rank1]:   File "run.py", line 5, in main
        [rank1]:     dist.barrier()
        [rank1]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error
        [rank1]: During handling of the above exception, another exception occurred:
        node-7: RuntimeError: the job was torn down
        """;
    assertEquals(
        "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled"
            + " system error\nRuntimeError: the job was torn down",
        ErrorLines.of(body));
  }

  @Test
  void fallsBackToTheFirstLineNamingAnErrorWhenTheTracebackIsCutOff() {
    String body =
        """
        Launching on 2 nodes prints
        gpu-3: watchdog says: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB
        and then
        Traceback (most recent call last):
          File "train.py", line 12, in <module>
        """;
    assertEquals(
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
        ErrorLines.of(body));
  }

  @Test
  void findsALibrarysErrorWithoutAnExceptionName() {
    assertEquals(
        "NCCL error: unhandled cuda error, NCCL version 2.18.1",
        ErrorLines.of(
            "ncclCommInitRank failed with: NCCL error: unhandled cuda error, NCCL version"
                + " 2.18.1\nthanks"));
  }

  @Test
  void hasNoneForTextWithoutErrorsAndCutsLongLines() {
    assertNull(ErrorLines.of("Please add a flag for the bucket size.\nThanks"));
    assertNull(ErrorLines.of(null));
    assertNull(ErrorLines.of("  "));
    String longLine = "ValueError: " + "x".repeat(500);
    assertEquals(ErrorLines.MAX_CHARS, ErrorLines.of(longLine).length());
  }

  @Test
  void keepsAtMostThreeLines() {
    StringBuilder b = new StringBuilder("Traceback (most recent call last):\n");
    for (int i = 0; i < 5; i++) {
      b.append("  File \"a.py\", line ").append(i).append(", in f\n");
      b.append("KeyError: 'k").append(i).append("'\n");
    }
    assertEquals("KeyError: 'k0'\nKeyError: 'k1'\nKeyError: 'k2'", ErrorLines.of(b.toString()));
  }
}
