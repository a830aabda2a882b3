#include "sim/cluster/network_topology.h"

#include <algorithm>

namespace sharesim {

NetworkTopology::NetworkTopology(const std::vector<std::uint32_t>& rack_of_node)
    : node_count_(static_cast<std::uint32_t>(rack_of_node.size())) {
  rack_count_ = rack_of_node.empty() ? 0 : *std::max_element(rack_of_node.begin(), rack_of_node.end()) + 1;
  // Vertices: nodes [0, n), leaves [n, n + racks), spine n + racks.
  graph_ = Graph(node_count_ + rack_count_ + 1);
  const std::size_t spine = node_count_ + rack_count_;
  for (std::uint32_t r = 0; r < rack_count_; ++r) boost::add_edge(node_count_ + r, spine, graph_);
  for (std::uint32_t n = 0; n < node_count_; ++n) boost::add_edge(n, node_count_ + rack_of_node[n], graph_);
  leaf_of_node_.resize(node_count_);
  for (std::uint32_t n = 0; n < node_count_; ++n) {
    const auto [edge, end] = boost::out_edges(n, graph_);
    leaf_of_node_[n] = static_cast<std::uint32_t>(boost::target(*edge, graph_) - node_count_);
  }
}

int NetworkTopology::hops(std::uint32_t node_a, std::uint32_t node_b) const {
  if (node_a == node_b) return 0;
  return leaf_of_node_[node_a] == leaf_of_node_[node_b] ? 2 : 4;
}

}  // namespace sharesim
