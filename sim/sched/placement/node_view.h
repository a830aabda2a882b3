#pragma once
// A small, policy-agnostic view of one node and one pod request, in the units of the GPU-
// sharing scheduling literature (Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing
// Workloads with Fragmentation Gradient Descent", USENIX ATC'23, Sec. 3 and 4): CPU in milli-
// cores, GPU in milli-GPUs (1000 = one whole GPU), and a GPU model. The score plugins of this
// folder (dot_product_score.h, best_fit_score.h, gpu_packing_score.h, gpu_clustering_score.h,
// fgd_score.h) compute over it, so the same formulas serve the fragmentation experiment
// (experiments/fragmentation/) and any other caller that can describe its nodes this way.
#include <cstdint>
#include <span>

namespace sharesim {

inline constexpr std::int32_t kMilliPerGpu = 1000;
// Normalisers of the score formulas: the largest node of the Alibaba openb cluster, 128 CPUs
// and 8 GPUs (the artifact of Weng et al. calls them MaxSpecCpu and MaxSpecGpu).
inline constexpr double kMaxSpecCpuMilli = 128000.0;
inline constexpr double kMaxSpecGpuMilli = 8000.0;
// Node scores are integers from 0 to 100, as kube-scheduler's (MinNodeScore, MaxNodeScore).
inline constexpr std::int64_t kMaxNodeScore = 100;
// The most GPUs one node view may have (GPU choices are returned in a fixed array).
inline constexpr int kMaxGpusPerNodeView = 64;

struct PlacementNodeView {
  std::int64_t cpu_free_milli = 0;
  std::int64_t cpu_total_milli = 0;
  std::int64_t memory_free_mib = 0;
  std::span<const std::int32_t> gpu_free_milli;  // one entry per GPU, 0..1000
  int gpu_model = -1;                            // model id (< 64), -1 for a node without GPUs
};

struct PlacementPodRequest {
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  std::int32_t num_gpu = 0;    // 0: CPU only; 1 with gpu_milli < 1000: a sharing pod; else whole GPUs
  std::int32_t gpu_milli = 0;  // per GPU (1000 for whole GPUs, 0 for CPU only)
  std::uint64_t allowed_models = ~std::uint64_t{0};  // bit m set: GPU model m is allowed

  bool is_sharing() const { return num_gpu == 1 && gpu_milli < kMilliPerGpu; }
  std::int64_t total_gpu_milli() const { return std::int64_t{num_gpu} * gpu_milli; }
};

// The GPUs chosen for a pod on one node (indices into gpu_free_milli).
struct GpuChoice {
  int count = 0;
  std::uint8_t gpus[kMaxGpusPerNodeView] = {};
};

std::int64_t total_free_gpu_milli(const PlacementNodeView& node);
int fully_free_gpu_count(const PlacementNodeView& node);

// The filters (kube-scheduler's NodeResourcesFit plus the GPU-share device filter of the
// artifact): enough free CPU and memory; for a GPU pod, a node model the pod allows; a sharing
// pod needs one GPU with at least gpu_milli free, a k-GPU pod k fully free GPUs. The GPU model
// constraint applies only to pods that ask for a GPU.
bool pod_fits_node(const PlacementNodeView& node, const PlacementPodRequest& pod);

// Best-fit GPU choice within a node: a sharing pod takes the GPU with the least free milli
// that still fits (lowest index on ties), a k-GPU pod the k lowest-index fully free GPUs.
// Empty choice for a CPU-only pod. The node must fit the pod.
GpuChoice best_fit_gpus(const PlacementNodeView& node, const PlacementPodRequest& pod);
// The k lowest-index fully free GPUs (a whole-GPU pod's choice in FGD).
GpuChoice lowest_free_gpus(const PlacementNodeView& node, int k);

}  // namespace sharesim
