#pragma once
// The cluster network as a Boost.Graph graph: nodes under leaf (rack) switches under one
// spine. Gang placement of multi-pod jobs asks it for hop counts to keep a job's pods close.
#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <vector>

namespace sharesim {

class NetworkTopology {
 public:
  // rack_of_node[i] = rack index of node i (racks numbered 0..racks-1).
  explicit NetworkTopology(const std::vector<std::uint32_t>& rack_of_node);

  // Switch hops between two nodes: 0 on the same node, 2 under one leaf, 4 across the spine.
  int hops(std::uint32_t node_a, std::uint32_t node_b) const;
  std::uint32_t rack(std::uint32_t node) const { return leaf_of_node_[node]; }
  std::uint32_t rack_count() const { return rack_count_; }

 private:
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  Graph graph_;
  std::uint32_t node_count_ = 0;
  std::uint32_t rack_count_ = 0;
  std::vector<std::uint32_t> leaf_of_node_;  // read off the graph once, for O(1) hops()
};

}  // namespace sharesim
