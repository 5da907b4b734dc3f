package dev.faultline.classifier;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Maps a repository to the framework it belongs to, including renamed and moved repositories
 * ({@code microsoft/DeepSpeed} is {@code deepspeedai/DeepSpeed}). For repositories of no known
 * framework the framework named most in the text is used.
 */
public final class Frameworks {

  private final Map<String, String> byRepo;
  private final Map<String, String> byOwner;
  private final List<Map.Entry<String, String>> textNames;

  public Frameworks() {
    Map<String, String> repos = new LinkedHashMap<>();
    for (String r :
        List.of(
            "deepspeedai/deepspeed",
            "microsoft/deepspeed",
            "deepspeedai/deepspeedexamples",
            "microsoft/deepspeedexamples",
            "deepspeedai/deepspeed-mii",
            "microsoft/deepspeed-mii")) {
      repos.put(r, "DeepSpeed");
    }
    repos.put("deepspeedai/megatron-deepspeed", "Megatron-DeepSpeed");
    repos.put("microsoft/megatron-deepspeed", "Megatron-DeepSpeed");
    repos.put("hpcaitech/colossalai", "Colossal-AI");
    repos.put("nvidia/megatron-lm", "Megatron-LM");
    repos.put("pytorch/pytorch", "PyTorch");
    repos.put("vllm-project/vllm", "vLLM");
    repos.put("horovod/horovod", "Horovod");
    repos.put("uber/horovod", "Horovod");
    repos.put("nvidia/nccl", "NCCL");
    repos.put("nvidia/apex", "Apex");
    repos.put("nvidia/nemo", "NeMo");
    repos.put("nvidia/transformerengine", "TransformerEngine");
    this.byRepo = Map.copyOf(repos);
    this.byOwner =
        Map.of("nvidia-nemo", "NeMo", "hpcaitech", "Colossal-AI", "deepspeedai", "DeepSpeed");
    this.textNames =
        List.of(
            Map.entry("megatron-deepspeed", "Megatron-DeepSpeed"),
            Map.entry("deepspeed", "DeepSpeed"),
            Map.entry("colossalai", "Colossal-AI"),
            Map.entry("colossal-ai", "Colossal-AI"),
            Map.entry("megatron", "Megatron-LM"),
            Map.entry("vllm", "vLLM"),
            Map.entry("horovod", "Horovod"),
            Map.entry("nccl", "NCCL"),
            Map.entry("torch.distributed", "PyTorch"),
            Map.entry("fsdp", "PyTorch"));
  }

  /** The framework of a repository ({@code owner/name}, any case), if it is a known one. */
  public Optional<String> ofRepo(String repo) {
    if (repo == null) {
      return Optional.empty();
    }
    String r = repo.trim().toLowerCase(Locale.ROOT);
    String known = byRepo.get(r);
    if (known != null) {
      return Optional.of(known);
    }
    int slash = r.indexOf('/');
    return slash > 0 ? Optional.ofNullable(byOwner.get(r.substring(0, slash))) : Optional.empty();
  }

  /**
   * The framework a text is about: the known name mentioned first in the lower-cased text, if any.
   *
   * @param lowerText already lower-cased text
   */
  public Optional<String> ofText(String lowerText) {
    int best = Integer.MAX_VALUE;
    String name = null;
    for (Map.Entry<String, String> e : textNames) {
      int i = lowerText.indexOf(e.getKey());
      if (i >= 0 && i < best) {
        best = i;
        name = e.getValue();
      }
    }
    return Optional.ofNullable(name);
  }
}
