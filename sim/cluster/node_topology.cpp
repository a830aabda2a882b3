#include "sim/cluster/node_topology.h"

#include <bit>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/floyd_warshall_shortest.hpp>
#include <limits>
#include <stdexcept>

namespace sharesim {
namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
                                    boost::property<boost::edge_weight_t, int>>;

constexpr int kNvLinkCost = 1;
constexpr int kPcieCost = 2;
constexpr int kInterSocketCost = 4;

// Vertices 0..gpu_count-1 are the GPUs; switches and sockets follow.
Graph build_graph(TopologyKind kind, std::uint32_t gpus) {
  Graph graph(gpus);
  const auto add = [&graph](std::size_t a, std::size_t b, int cost) { boost::add_edge(a, b, cost, graph); };
  switch (kind) {
    case TopologyKind::NvSwitch: {
      // The NVSwitch fabric gives every GPU pair full NVLink bandwidth: one hop between any two.
      for (std::size_t a = 0; a < gpus; ++a)
        for (std::size_t b = a + 1; b < gpus; ++b) add(a, b, kNvLinkCost);
      break;
    }
    case TopologyKind::NvLinkPairs:
    case TopologyKind::Pcie: {
      const std::size_t socket0 = boost::add_vertex(graph);
      const std::size_t socket1 = boost::add_vertex(graph);
      add(socket0, socket1, kInterSocketCost);
      const std::size_t switches = (gpus + 1) / 2;
      for (std::size_t s = 0; s < switches; ++s) {
        const std::size_t pcie_switch = boost::add_vertex(graph);
        add(pcie_switch, s < (switches + 1) / 2 ? socket0 : socket1, kPcieCost);
        for (std::size_t g = 2 * s; g < std::min<std::size_t>(2 * s + 2, gpus); ++g) add(g, pcie_switch, kPcieCost);
      }
      if (kind == TopologyKind::NvLinkPairs) {
        for (std::size_t g = 0; g + 1 < gpus; g += 2) add(g, g + 1, kNvLinkCost);
      }
      break;
    }
  }
  return graph;
}

}  // namespace

bool parse_topology_kind(std::string_view text, TopologyKind& out) {
  if (text == "nvswitch") {
    out = TopologyKind::NvSwitch;
  } else if (text == "nvlink-pairs") {
    out = TopologyKind::NvLinkPairs;
  } else if (text == "pcie") {
    out = TopologyKind::Pcie;
  } else {
    return false;
  }
  return true;
}

std::string_view topology_kind_name(TopologyKind kind) {
  switch (kind) {
    case TopologyKind::NvSwitch:
      return "nvswitch";
    case TopologyKind::NvLinkPairs:
      return "nvlink-pairs";
    case TopologyKind::Pcie:
      return "pcie";
  }
  return "?";
}

NodeTopology::NodeTopology(TopologyKind kind, std::uint32_t gpu_count) : kind_(kind), gpu_count_(gpu_count) {
  if (gpu_count > 16) throw std::invalid_argument("a node has at most 16 GPUs");
  const Graph graph = build_graph(kind, gpu_count);
  const std::size_t vertices = boost::num_vertices(graph);
  std::vector<std::vector<int>> all_pairs(vertices, std::vector<int>(vertices));
  boost::floyd_warshall_all_pairs_shortest_paths(graph, all_pairs);
  distance_.resize(std::size_t{gpu_count} * gpu_count);
  for (std::uint32_t a = 0; a < gpu_count; ++a)
    for (std::uint32_t b = 0; b < gpu_count; ++b) distance_[a * gpu_count + b] = all_pairs[a][b];
}

std::uint32_t NodeTopology::choose_gpus(std::uint32_t free_mask, std::uint32_t count) const {
  if (count == 0) return 0;
  if (static_cast<std::uint32_t>(std::popcount(free_mask)) < count) return 0;
  if (count == 1) return free_mask & (~free_mask + 1);  // lowest free GPU
  // Greedy growth from every free seed: add the free GPU closest to the chosen set.
  std::uint32_t best_mask = 0;
  long best_cost = std::numeric_limits<long>::max();
  for (std::uint32_t seed = 0; seed < gpu_count_; ++seed) {
    if (!(free_mask >> seed & 1u)) continue;
    std::uint32_t chosen = 1u << seed;
    long cost = 0;
    for (std::uint32_t picked = 1; picked < count; ++picked) {
      std::uint32_t next = gpu_count_;
      long next_cost = std::numeric_limits<long>::max();
      for (std::uint32_t g = 0; g < gpu_count_; ++g) {
        if (!(free_mask >> g & 1u) || (chosen >> g & 1u)) continue;
        long added = 0;
        for (std::uint32_t c = 0; c < gpu_count_; ++c)
          if (chosen >> c & 1u) added += distance(g, c);
        if (added < next_cost) {
          next_cost = added;
          next = g;
        }
      }
      chosen |= 1u << next;
      cost += next_cost;
    }
    if (cost < best_cost || (cost == best_cost && chosen < best_mask)) {
      best_cost = cost;
      best_mask = chosen;
    }
  }
  return best_mask;
}

}  // namespace sharesim
