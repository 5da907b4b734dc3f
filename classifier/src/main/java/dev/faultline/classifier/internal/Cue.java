package dev.faultline.classifier.internal;

import java.util.List;

/**
 * The word-level signals the rules use, each a list of phrases (see {@link Phrase}). Derived from the codebook's
 * "signals" column and from how these frameworks report their failures. Immutable.
 */
public enum Cue {
  // ---- generic failure evidence
  TRACEBACK("traceback", "most recent call last", "stack trace", "stacktrace", "core dumped", "call stack"),
  ERROR(
      "error", "errors", "exception", "failed", "fails", "fail", "failure", "crash*", "abort*", "raise*",
      "runtimeerror", "valueerror", "typeerror", "attributeerror", "keyerror", "indexerror", "assertionerror",
      "notimplementederror", "zerodivisionerror", "filenotfounderror", "oserror", "not work", "does not work",
      "can not", "could not", "has no attribute", "object has no attribute", "not defined", "unexpected keyword",
      "missing required", "assert", "assertion", "raises",
      "doesnt work", "not working", "cannot", "cant", "unable", "broken", "breaks", "报 错", "错 误", "失 败"),
  HARD_CRASH(
      "segmentation fault", "segfault", "sigsegv", "sigabrt", "illegal memory access", "core dumped",
      "coredump", "cuda error", "device side assert", "illegal instruction", "bus error", "exitcode", "exit code"),
  // ---- symptoms
  BUILD_STRONG(
      "error building extension", "building extension", "failed building wheel", "subprocess exited with error",
      "compilation error", "compile error", "compiling", "ld returned", "ninja is required", "ninja error",
      "ninja build stopped", "build stopped", "nvcc fatal", "nvcc error",
      "unable to pre compile", "pre compile", "precompile", "build error", "build fail*", "failed to build",
      "error building", "build_ext", "cpp_extension", "op_builder", "ds_build", "cuda_ext", "cuda_home",
      "fused_adam_frontend", "cuda o", "gcc", "cmake", "legacy install failure", "metadata generation failed",
      "could not build wheels", "msvc", "cl exe", "编 译"),
  INSTALL(
      "pip install", "pip3 install", "install", "installing", "installation", "installed", "setup py", "wheel",
      "build", "building", "builds", "pypi", "conda install",
      "安 装"),
  IMPORT(
      "importerror", "modulenotfounderror", "no module named", "cannot import name", "cannot import", "import error",
      "undefined symbol", "failed to import", "could not import", "import fail*", "not found apex",
      "apex not found", "apex required", "apex is not installed", "is not installed", "are not installed"),
  SETUP(
      "address already in use", "rendezvous", "hostfile", "pdsh", "ssh",
      "master addr", "master port", "connection refused", "connection reset",
      "rsa private key", "private key", "permission denied publickey", "elastic launcher", "eaddrinuse",
      "errno 98", "tcpstore", "could not resolve", "no route to host", "init_process_group", "launcher fail*",
      "multi node", "multinode", "multiple nodes", "multi machine", "two nodes", "2 nodes"),
  SETUP_WEAK(
      "launcher", "torchrun", "mpirun", "colossalai run", "deepspeed launcher", "nodes", "socket", "store",
      "hostname", "ibv", "infiniband", "world_size", "local_rank", "master_addr", "master_port"),
  OOM(
      "out of memory", "outofmemoryerror", "outofmemory", "oom", "ooms", "cuda oom", "tried to allocate",
      "cannot allocate memory", "memoryerror", "killed", "oom killer", "sigkill", "显 存 不 足", "内 存 不 足",
      "爆 显 存"),
  MEMORY_ANOMALY(
      "memory leak", "leak", "leaks", "leaking", "memory usage", "memory consumption", "more memory",
      "higher memory", "memory increase*", "memory grows", "memory growth", "all gpu memory", "all the gpu memory",
      "memory not released", "memory footprint", "memory keeps", "uses more",
      "use more", "memory is not", "显 存 占 用"),
  HANG(
      "hang", "hangs", "hanging", "hung", "stuck", "deadlock*", "freez*", "frozen", "no progress",
      "watchdog", "timed out", "timeout", "time out", "never returns", "never finishes", "blocked",
      "blocks", "block the", "waiting forever", "forever", "no response", "not responding", "卡 住", "卡 死"),
  COMM_ERROR(
      "nccl error", "ncclinternalerror", "ncclsystemerror", "ncclunhandledcudaerror", "ncclinvalidusage",
      "ncclremoteerror", "nccl failure", "unhandled system error", "unhandled cuda error", "internal error nccl",
      "nccl communicator", "nccl internal", "nccl warn", "gloo error", "gloo connect", "mpi error",
      "mpi_abort", "nccl version", "distbackenderror", "collective operation", "nccl operation"),
  CHECKPOINT(
      "checkpoint", "checkpoints", "checkpointing", "save_checkpoint", "load_checkpoint", "universal checkpoint",
      "universal_checkpoint*", "ds_to_universal", "zero_to_fp32", "state_dict", "load_state_dict",
      "resume", "resuming", "resumed", "convert*", "conversion", "save_pretrained", "save model",
      "saving", "save load", "load save", "ckpt", "save_model", "load_model", "loading the saved", "saved model"),
  ACT_CHECKPOINT(
      "activation checkpoint*", "activation_checkpoint*", "gradient checkpoint*", "checkpoint_activations", "checkpointing activations",
      "activations checkpoint*", "recompute*", "checkpoint function", "partition_activations",
      "partition activations"),
  PERFORMANCE(
      "slow", "slower", "slowdown", "slow down", "slows down", "throughput", "tflops", "mfu", "latency",
      "performance", "faster", "speed", "samples per sec*", "tokens per sec*", "scaling efficiency",
      "速 度", "慢"),
  INCONSISTENT(
      "discrepancy", "inconsisten*", "different results", "different loss", "loss difference", "differ across",
      "across ranks", "between ranks", "across devices", "different ranks", "not consistent", "not identical",
      "mismatch between", "different from single", "different outputs", "different output"),
  INCORRECT(
      "nan", "nans", "inf", "loss is nan", "diverge*", "not decrease", "doesnt decrease", "does not decrease",
      "cannot decrease", "can not decrease", "not converge", "incorrect", "wrong", "accuracy", "loss spike",
      "not learn", "doesnt learn", "garbage", "gibberish", "incorrect gradient", "wrong gradient", "gradient is",
      "gradients are", "overflow", "precision", "unstable", "loss scale", "exploding", "zero loss", "loss is 0"),
  MALFUNCTION(
      "no effect", "ignored", "ignores", "always false", "always true", "not take effect", "does not take effect",
      "silently", "no reduction", "brings no", "not applied", "has no effect", "not respected", "is reported",
      "reported by", "flops", "profiler", "is always", "never used", "not used", "not reduce", "does not reduce"),
  NOT_WORKING("doesnt work", "does not work", "not working", "arent working", "isnt working", "not work", "dont work"),
  CI(
      "ci", "unit test", "unit tests", "unittest", "pytest", "test_*", "test case", "tests", "test", "testing", "workflow",
      "github actions", "nv torch latest", "nightly", "ci failure", "ci test"),
  TEMPLATE_PLACEHOLDER("env github_workflow", "github_workflow"),
  /** Instructions of the issue templates, left in place when the reporter writes nothing of their own. */
  TEMPLATE_BOILERPLATE(
      "a clear and concise description", "add any other context", "steps to reproduce the behavior",
      "if applicable add screenshots", "describe alternatives youve considered", "describe the solution youd like"),
  // ---- kinds
  QUESTION(
      "how to", "how do i", "how can i", "how should i", "how do we", "how can we", "is it possible",
      "i wonder", "wondering", "could you explain", "can you explain", "any suggestion*", "what is",
      "what does", "is there a way", "is there any", "does deepspeed support", "does it support",
      "do you support", "any idea", "any ideas", "question", "questions", "confus*", "understand",
      "clarif*", "请 问", "如 何", "怎 么"),
  FEATURE(
      "support", "feature", "feature request", "request", "enhancement", "would be nice", "would be great",
      "please add", "add support", "it would be", "proposal", "motivation", "could you add", "can you add",
      "plan to support", "roadmap", "new model"),
  DOC(
      "doc", "docs", "documentation", "readme", "tutorial", "docstring", "typo", "typos", "api reference",
      "website", "文 档"),
  /** A fault of the text itself: with a docs word in the title, an "error" that is not a failure of the code. */
  DOC_FAULT(
      "spelling error", "spelling errors", "spelling mistake", "spelling mistakes", "misspelled", "misspelling",
      "grammar error", "grammatical error", "broken link", "broken links", "dead link", "dead links", "typo", "typos"),
  // ---- stages
  INIT(
      "initialize", "initialization", "initializing", "init", "deepspeed initialize", "zero init", "zero.init",
      "from_pretrained", "load the model", "loading model", "model loading", "loading the model", "start*",
      "initializ*", "lazyinit*", "lazy init*", "zero_init", "is_zero_init*", "zero init", "startup", "start up",
      "launch*", "construct*", "config", "when creating", "setup", "import", "engine", "build model"),
  /** Calls that build the engine, the model or the process groups: a failure inside them is at start-up. */
  INIT_STRONG(
      "deepspeed initialize", "init_inference", "deepspeed init_inference", "inferenceengine", "init_process_group",
      "initialize_model_parallel", "init_distributed", "initialize_distributed", "during initialization",
      "when initializing", "while initializing", "fails to initialize", "failed to initialize", "at startup",
      "at start up", "during startup", "engine initialization", "model initialization"),
  COMMUNICATION(
      "nccl", "gloo", "mpi", "allreduce", "all_reduce", "all reduce", "allgather", "all_gather", "all gather",
      "reduce_scatter", "reduce scatter", "reducescatter", "alltoall", "all_to_all", "all to all", "broadcast",
      "barrier", "send", "recv", "isend", "irecv", "p2p", "collective", "collectives", "communication",
      "a2a", "overlap_comm", "overlap comm", "overlap grad reduce", "overlap param gather", "overlap-grad-reduce",
      "grad reduce", "param gather", "hpz", "qgz", "qwz", "process group", "process_group", "comm"),
  COMPUTE(
      "forward", "backward", "kernel", "kernels", "optimizer step", "optimizer", "fp16", "bf16", "fp8",
      "fused", "loss", "gradient", "gradients", "attention", "matmul", "cuda kernel", "triton", "generate",
      "generation", "inference", "moe", "sparse attention", "dtype", "precision", "flops", "tensor"),
  MEMORY(
      "zero 3", "zero3", "zero 2", "zero2", "zero stage", "stage 3", "stage3", "stage 2", "stage2",
      "zero_optimization", "offload", "offloading", "nvme", "cpu_adam", "cpuadam", "partition*", "memory",
      "activation checkpoint*", "activation_checkpoint*", "gemini", "low level zero",
      "lowlevelzero", "fragmentation", "allocat*"),
  SCHEDULING(
      "pipeline", "pipelinemodule", "pipeline parallel*", "pp_size", "pp size", "pp", "pipeline_model_parallel*",
      "micro batch*", "microbatch*", "micro_batch*", "1f1b", "interleav*", "schedule", "scheduler",
      "scheduling", "num_micro", "virtual pipeline", "virtual stage*", "model chunk*", "batching",
      "continuous batching", "pipe"),
  FAULT_TOLERANCE("elastic", "fault toleran*", "recovery", "restart", "universal checkpoint"),
  // ---- phase
  TRAINING(
      "train", "training", "trainer", "trains", "fine tun*", "finetun*", "pretrain*", "pre train*", "backward",
      "optimizer", "adam", "adamw", "fused_adam", "cpu_adam", "epoch", "epochs", "sft", "rlhf", "ppo",
      "dpo", "gradient*", "grad", "loss", "lr", "zero", "zero3", "zero2", "zero_optimization", "train_batch_size",
      "fsdp", "pipeline", "pipelinemodule", "activation checkpoint*", "activation_checkpoint*",
      "partition_activations", "训 练", "微 调"),
  INFERENCE(
      "inference", "generate", "generation", "serving", "serve", "init_inference", "kernel injection",
      "kernel_inject", "replace_with_kernel_inject", "deepspeed inference", "deepspeed mii", "mii",
      "prefill", "decode", "decoding", "text generation", "vllm", "推 理"),
  /**
   * A defect of both phases: DeepSpeed's Hybrid Engine (DeepSpeed-Chat's RLHF step) switches one model between
   * training and inference generation; or the text says so outright.
   */
  BOTH_PHASES(
      "hybrid engine", "hybrid_engine", "hybridengine", "both training and inference", "both inference and training",
      "training and inference both", "training as well as inference", "inference as well as training",
      "for both training and inference", "in both training and inference"),
  // ---- distributed-specific
  DISTRIBUTED(
      "rank", "ranks", "world_size", "world size", "multi node", "multinode", "multi gpu", "multigpu",
      "multiple gpus", "multiple nodes", "nccl", "gloo", "allreduce", "all_reduce", "allgather", "all_gather",
      "reduce_scatter", "alltoall", "tensor parallel*", "tensor_parallel*", "tensor model parallel*",
      "pipeline parallel*", "sequence parallel*", "context parallel*", "expert parallel*", "data parallel*",
      "tp_size", "pp_size", "tp size", "pp size", "tp", "pp", "ep", "fsdp", "sharded", "sharding", "shardformer",
      "process group", "torchrun", "hostfile", "nodes", "ddp", "hybridparallelplugin", "ep_size", "8 gpus",
      "pipelinemodule", "model parallel*", "mp_size", "hpz", "overlap grad reduce", "overlap param gather",
      "distributed optimizer", "across ranks",
      // torchrun's per-process log prefix ("[rank3]:"): a line from rank 1 or above proves a second process
      "rank1*", "rank2*", "rank3*", "rank4*", "rank5*", "rank6*", "rank7*", "rank8*", "rank9*"),
  DISTRIBUTED_WEAK(
      "zero 3", "zero3", "zero 2", "zero2", "zero 1", "zero1", "zero stage", "stage 3", "offload", "gemini",
      "partition*", "universal checkpoint", "distributed", "gpus", "processes", "zero"),
  /** Process-group construction: only a run of several processes has one. */
  INIT_DISTRIBUTED(
      "init_process_group", "initialize_model_parallel", "init_distributed", "initialize_distributed",
      "new_group", "device_mesh", "init_device_mesh"),
  SINGLE_DEVICE(
      "single gpu", "one gpu", "1 gpu", "single device", "single process", "cpu only", "on cpu", "num_gpus 1",
      "nproc_per_node 1", "mp_size 1"),
  // ---- root cause / fix evidence
  RESOLVED(
      "solved", "resolved", "fixed", "fixes", "works now", "it works", "worked", "working now", "the fix",
      "this fixes", "solution", "solve", "solves", "fix this", "fixed by", "fixed in", "workaround"),
  VERSION_CAUSE(
      "incompatible", "incompatibility", "not compatible", "version mismatch", "mismatch version",
      "removed in", "deprecated", "no longer", "renamed", "pypi version", "update pypi", "older version",
      "newer version", "was removed", "has been removed", "outdated", "out of date", "moved to", "has been moved",
      "was moved"),
  VERSION_FIX(
      "downgrad*", "upgrad*", "pin", "pinned", "pinning", "update to", "updating", "reinstall*", "install the latest",
      "from source", "switch to version", "use version", "rebuild", "install an older", "older release", "bump*",
      "pin the", "pin to"),
  // ---- diagnosis: the thread or PR says why it broke (codebook section 9: only stated causes count)
  DIAGNOSIS(
      "the issue is", "the problem is", "the bug is", "root cause", "is caused by", "was caused by", "caused by",
      "this is because", "this happens because", "the reason is", "the culprit", "the fix is", "fix is to",
      "proposed fix", "suggested fix", "should be", "instead of", "introduced in", "introduced by", "this pr fixes",
      "this fixes", "this pr", "fix for"),
  CAUSE_IMPLEMENTATION(
      "typo", "typos", "copy paste", "wrong index", "off by one", "wrong condition",
      "inverted condition", "logic error", "wrong logic", "incorrect logic", "wrong formula", "wrong calculation",
      "incorrect calculation", "miscalculat*", "incorrectly computed", "computed incorrectly", "wrong computation"),
  CAUSE_PRECONDITION(
      "add a check", "adds a check", "added a check", "missing check", "without checking", "no check", "not divisible",
      "divisible by", "divisibility", "guard against", "check for none", "none check", "is not none", "edge case",
      "corner case", "empty list", "world size is 1", "world_size 1", "when world_size"),
  CAUSE_COMMUNICATION(
      "wrong process group", "wrong group", "incorrect process group", "incorrect group", "wrong collective",
      "collective order", "order of collectives", "mismatched collective*", "wrong src", "wrong dst", "wrong rank",
      "incorrect rank", "wrong communicator", "wrong pg", "default process group", "wrong backend", "collectives mismatch"),
  CAUSE_CONCURRENCY(
      "race condition", "race conditions", "data race", "racing", "missing sync*", "stream sync*",
      "not synchronized", "without synchroniz*", "synchronization issue", "out of order", "thread safe*",
      "thread unsafe", "concurren*"),
  CAUSE_DIST_TENSOR(
      "tensor slicing", "slicing", "reshard*", "sharded tensor", "shard metadata", "sharding metadata",
      "tensor metadata", "wrong partition size", "partitioned tensor", "tp slicing", "merge the shards",
      "merging shards"),
  CAUSE_EXCEPTION(
      "swallow*", "exception is ignored", "error is ignored", "errors are ignored", "silently ignored",
      "is ignored when", "should raise", "should be raised", "not raised", "is not raised", "masks the", "error handling", "exception handling", "bare except", "no error message",
      "without an error", "without error"),
  CAUSE_DEPENDENCY("upstream bug", "upstream issue", "bug in nccl", "nccl bug", "bug in pytorch", "pytorch bug",
      "bug in transformers", "bug in apex", "issue in nccl", "issue in pytorch", "bug in triton"),
  CAUSE_ENVIRONMENT(
      "unsupported gpu architecture", "not supported on windows", "compute capability", "unsupported architecture",
      "not supported on this gpu", "driver is too old", "driver version is insufficient", "glibc"),
  CAUSE_API_MISUSE("api change*", "changed api", "changed the api", "wrong api", "misuse*",
      "deprecated api", "incorrect use of", "incorrect usage of", "wrong usage"),
  CAUSE_CONFIG("wrong default", "incorrect default", "default value", "config key", "env var", "environment variable",
      "build flag", "wrong flag", "wrong config", "misconfigur*"),
  CAUSE_ASSIGNMENT("stale value", "wrong value", "incorrectly set", "wrongly set", "was not updated", "is not updated",
      "not reset", "overwritten", "overwrites", "wrong variable"),
  // ---- fix evidence
  FIX_CONDITION(
      "add a check", "adds a check", "added a check", "add check", "check whether", "check if", "guard", "early return",
      "return early", "skip when", "skip if", "only when", "only if", "if condition", "conditional", "handle the case",
      "handle case", "handles the case", "should only"),
  FIX_PARAMETER(
      "rename* arg*", "rename* param*", "renam* the argument", "default value", "pass the argument",
      "pass argument", "propagat*", "kwarg*", "argument validation", "validate the argument", "args"),
  FIX_VERSION_COMPAT(
      "backward compat*", "backwards compat*", "version check", "older versions", "for newer versions",
      "compat shim", "version guard", "version gate*", "depending on the version", "is_torch_version"),
  /** Advice in a reply to a build or import failure: install, rebuild or change a version. */
  /** A name that a module no longer exports: the API moved between versions. */
  API_MOVED("cannot import name", "has no attribute", "no module named"),
  INSTALL_ADVICE(
      "pip install", "pip3 install", "ds_build_*", "install sh", "reinstall*", "upgrad*", "downgrad*", "version",
      "versions", "prebuilt", "pre built", "rebuild", "from source", "conda install"),
  FIX_REWRITE("refactor*", "rewrite", "rewrote", "rewritten", "reimplement*", "redesign*");

  private final List<String> phrases;

  Cue(String... phrases) {
    this.phrases = List.of(phrases);
  }

  public List<String> phrases() {
    return phrases;
  }
}
