package dev.faultline.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FrameworksTest {

  private final Frameworks frameworks = new Frameworks();

  @Test
  void treatsMovedDeepSpeedRepositoriesAsOneFramework() {
    assertEquals("DeepSpeed", frameworks.ofRepo("microsoft/DeepSpeed").orElseThrow());
    assertEquals("DeepSpeed", frameworks.ofRepo("deepspeedai/DeepSpeed").orElseThrow());
    assertEquals("DeepSpeed", frameworks.ofRepo("DEEPSPEEDAI/deepspeed").orElseThrow());
  }

  @Test
  void mapsTheOtherKnownRepositories() {
    assertEquals("Colossal-AI", frameworks.ofRepo("hpcaitech/ColossalAI").orElseThrow());
    assertEquals("Megatron-LM", frameworks.ofRepo("NVIDIA/Megatron-LM").orElseThrow());
    assertEquals("PyTorch", frameworks.ofRepo("pytorch/pytorch").orElseThrow());
    assertEquals("vLLM", frameworks.ofRepo("vllm-project/vllm").orElseThrow());
    assertEquals("Horovod", frameworks.ofRepo("horovod/horovod").orElseThrow());
    assertEquals("NCCL", frameworks.ofRepo("NVIDIA/nccl").orElseThrow());
  }

  @Test
  void fallsBackToTheFrameworkNamedInTheText() {
    assertTrue(frameworks.ofRepo("someone/else").isEmpty());
    assertEquals("DeepSpeed", frameworks.ofText("we wrap deepspeed and megatron").orElseThrow());
  }
}
