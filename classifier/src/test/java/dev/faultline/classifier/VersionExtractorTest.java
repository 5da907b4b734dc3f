package dev.faultline.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class VersionExtractorTest {

  private final VersionExtractor extractor = new VersionExtractor();

  @Test
  void readsPipFreezeAndPipListLines() {
    Map<String, String> v =
        extractor.extract(
            "accelerate==0.25.0\ntransformers==4.36.2\nflash-attn               2.5.6\ntriton 2.1.0\n");
    assertEquals("0.25.0", v.get("accelerate"));
    assertEquals("4.36.2", v.get("transformers"));
    assertEquals("2.5.6", v.get("flash-attn"));
    assertEquals("2.1.0", v.get("triton"));
  }

  @Test
  void readsDsReportFields() {
    Map<String, String> v =
        extractor.extract(
            "DeepSpeed general environment info:\n"
                + "torch install path ............... ['/opt/conda/lib/python3.10/site-packages/torch']\n"
                + "torch version .................... 2.1.2\n"
                + "deepspeed info ................... 0.13.1, unknown, unknown\n"
                + "torch cuda version ............... 12.1\n");
    assertEquals("2.1.2", v.get("torch"));
    assertEquals("0.13.1", v.get("deepspeed"));
    assertEquals("12.1", v.get("cuda"));
    assertFalse(v.containsKey("python"), "python only appears inside an install path: " + v);
  }

  @Test
  void readsTorchWithLocalVersionNvidiaSmiAndNcclBanner() {
    Map<String, String> v =
        extractor.extract(
            "I use torch 2.1.0+cu118.\n| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |\n"
                + "node1:123:123 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\n");
    assertEquals("2.1.0+cu118", v.get("torch"));
    assertEquals("12.2", v.get("cuda"));
    assertEquals("535.104.05", v.get("driver"));
    assertEquals("2.18.1+cuda12.1", v.get("nccl"));
  }

  @Test
  void readsEnvironmentSectionsAndStripsLeadingV() {
    Map<String, String> v =
        extractor.extract(
            "- Python version: 3.10.12\n- ColossalAI version: v0.3.4\n- Megatron-core 0.5.0\n"
                + "- vLLM version: 0.4.2\n- Horovod v0.28.1\n- ROCm 5.7.1\n");
    assertEquals("3.10.12", v.get("python"));
    assertEquals("0.3.4", v.get("colossalai"));
    assertEquals("0.5.0", v.get("megatron-core"));
    assertEquals("0.4.2", v.get("vllm"));
    assertEquals("0.28.1", v.get("horovod"));
    assertEquals("5.7.1", v.get("rocm"));
  }

  @Test
  void ignoresVersionsInsideFileAndInstallPaths() {
    Map<String, String> v =
        extractor.extract(
            "  File \"/usr/lib/python3.8/site-packages/deepspeed-0.9.1/runtime/engine.py\", line 10\n"
                + "C:\\src\\DeepSpeed-0.7.3\\setup.py failed\nhttps://example.org/torch-2.0.1/whl\n");
    assertTrue(v.isEmpty(), v.toString());
  }

  @Test
  void ignoresComponentsThatOnlyShareAPrefix() {
    Map<String, String> v =
        extractor.extract("torchvision 0.16.0\ncudnn 8.9.2\ntorch.float16 tensors\n");
    assertTrue(v.isEmpty(), v.toString());
  }

  @Test
  void readsContainerImageTags() {
    Map<String, String> v = extractor.extract("docker run nvcr.io/nvidia/pytorch:23.10-py3 bash");
    assertEquals("23.10-py3", v.get("nvcr.io/nvidia/pytorch"));
  }

  @Test
  void readsFrameworkNameAndVersionFromTwoLineTemplate() {
    var v =
        new VersionExtractor()
            .extract(
                "1. Framework: PyTorch\n2. Framework version: 1.9.1\n3. Horovod version: 0.22.0\n");
    assertEquals("1.9.1", v.get("torch"));
    assertEquals("0.22.0", v.get("horovod"));
  }

  @Test
  void splitsTorchPlusCudaIntoTorchAndCuda() {
    var v = new VersionExtractor().extract("pytorch: 1.12+cuda11.3\n");
    assertEquals("1.12", v.get("torch"));
    assertEquals("11.3", v.get("cuda"));
  }

  @Test
  void keepsQuotedValuesAndStatedRanges() {
    var v =
        new VersionExtractor()
            .extract(
                "torch version :- '2.0.1+cu117'\nSince transformers `4.40.0`\n"
                    + "broken with deepspeed \u2265 0.14.1\n");
    assertEquals("2.0.1+cu117", v.get("torch"));
    assertEquals("4.40.0", v.get("transformers"));
    assertEquals("\u2265 0.14.1", v.get("deepspeed"));
  }

  @Test
  void readsPytorchCollectEnvReport() {
    var v =
        extractor.extract(
            "PyTorch version: 2.3.1+cu121\nIs debug build: False\nCUDA used to build PyTorch: 12.1\n"
                + "Python version: 3.11.9 (main, Apr 19 2024, 16:48:06) [GCC 11.2.0] (64-bit runtime)\n"
                + "Versions of relevant libraries:\n[pip3] torch==2.3.1\n[pip3] triton==2.3.1\n");
    assertEquals("2.3.1+cu121", v.get("torch"));
    assertEquals("12.1", v.get("cuda"));
    assertEquals("3.11.9", v.get("python"));
    assertEquals("2.3.1", v.get("triton"));
  }

  @Test
  void readsMarkdownTemplatesWithQuotedOrBoldNamesAndQualifiers() {
    var v =
        extractor.extract(
            "- `transformers` version: 4.41.0\n- PyTorch version (GPU?): 2.2.0+cu118 (True)\n"
                + "- **DeepSpeed version**: 0.14.4\n- **Python version**: 3.10\n");
    assertEquals("4.41.0", v.get("transformers"));
    assertEquals("2.2.0+cu118", v.get("torch"));
    assertEquals("0.14.4", v.get("deepspeed"));
    assertEquals("3.10", v.get("python"));
  }

  @Test
  void readsNcclFromContainerEnvironmentAndPackagePins() {
    assertEquals("2.19.3", extractor.extract("NCCL_VERSION=2.19.3\n").get("nccl"));
    assertEquals(
        "2.8.3-1+cuda11.1",
        extractor.extract("ENV NV_LIBNCCL_PACKAGE=libnccl2=2.8.3-1+cuda11.1\n").get("nccl"));
  }

  @Test
  void readsPipShowAndDunderVersionPrints() {
    var v =
        extractor.extract(
            "$ pip show deepspeed\nName: deepspeed\nVersion: 0.16.2\nSummary: DeepSpeed library\n"
                + ">>> torch.__version__\n>>> print(torch.__version__ )\ntorch.__version__ = 2.4.0\n");
    assertEquals("0.16.2", v.get("deepspeed"));
    assertEquals("2.4.0", v.get("torch"));
    var unknownPackage = extractor.extract("Name: numpy\nVersion: 1.26.4\n");
    assertTrue(
        unknownPackage.isEmpty(), "only components the taxonomy names are kept: " + unknownPackage);
  }

  @Test
  void readsAVersionStatedWithWhereItWasRead() {
    var v =
        extractor.extract(
            "The CUDA version of `nvcc --version` is 12.1 and the torch version in my env is 2.2.1.\n"
                + "The python version of the container is important here.\n");
    assertEquals("12.1", v.get("cuda"));
    assertEquals("2.2.1", v.get("torch"));
    assertFalse(v.containsKey("python"), "no version follows: " + v);
  }
}
