#pragma once
// Intra-node GPU interconnect as a Boost.Graph graph, reduced to a GPU-to-GPU distance
// matrix that gang placement uses to prefer well-connected GPUs for multi-GPU pods.
//
// Link costs are relative path weights, not bandwidths: an NVLink/NVSwitch hop costs 1, a
// PCIe hop 2 and the inter-socket link 4, so that NVLink < same PCIe switch < same socket
// < across sockets, the order NCCL's topology search also prefers (NCCL docs, "NCCL_P2P_LEVEL":
// NVL < PIX < PXB < PHB < SYS).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

enum class TopologyKind {
  NvSwitch,     // every GPU on an NVSwitch fabric (DGX/HGX A100, H100)
  NvLinkPairs,  // GPUs NVLink-bridged in pairs, pairs joined over PCIe
  Pcie,         // two GPUs per PCIe switch, switches split over two CPU sockets
};

// "nvswitch" | "nvlink-pairs" | "pcie"; false when unknown.
bool parse_topology_kind(std::string_view text, TopologyKind& out);
std::string_view topology_kind_name(TopologyKind kind);

class NodeTopology {
 public:
  NodeTopology(TopologyKind kind, std::uint32_t gpu_count);

  TopologyKind kind() const { return kind_; }
  std::uint32_t gpu_count() const { return gpu_count_; }
  // Shortest-path cost between two GPUs of the node (0 on the diagonal).
  int distance(std::uint32_t a, std::uint32_t b) const { return distance_[a * gpu_count_ + b]; }

  // Picks `count` GPUs among the free ones (bit i of free_mask = local GPU i is free) with a
  // small sum of pairwise distances, by a greedy growth from each free GPU (not always the
  // smallest sum: docs/models.md "Choosing GPUs inside the node"); ties go to the lowest
  // indices. Returns a mask, 0 when fewer than `count` are free.
  std::uint32_t choose_gpus(std::uint32_t free_mask, std::uint32_t count) const;

 private:
  TopologyKind kind_;
  std::uint32_t gpu_count_;
  std::vector<int> distance_;
};

}  // namespace sharesim
