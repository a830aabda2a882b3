#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "sim/cluster/network_topology.h"
#include "sim/cluster/node_topology.h"
#include "sim/core/random_stream.h"
#include "sim/sched/free_units_index.h"

namespace sharesim {
namespace {

TEST(FreeUnitsIndex, FirstAtLeastMatchesALinearScan) {
  RandomStream rng(5);
  for (std::size_t size : {1u, 2u, 7u, 64u, 1000u}) {
    FreeUnitsIndex index(size);
    std::vector<std::int64_t> reference(size, 0);
    for (int step = 0; step < 3000; ++step) {
      const std::size_t node = rng.uniform_index(size);
      reference[node] = static_cast<std::int64_t>(rng.uniform_index(9));
      index.set(node, reference[node]);
      const auto need = static_cast<std::int64_t>(rng.uniform_index(10));
      const std::size_t from = rng.uniform_index(size + 1);
      std::size_t expected = SIZE_MAX;
      for (std::size_t n = from; n < size; ++n) {
        if (reference[n] >= need) {
          expected = n;
          break;
        }
      }
      ASSERT_EQ(index.first_at_least(need, from), expected) << "size " << size << " step " << step;
      ASSERT_EQ(index.max_free(), *std::max_element(reference.begin(), reference.end()));
    }
  }
}

TEST(NodeTopology, DistancesFollowTheInterconnect) {
  const NodeTopology nvswitch(TopologyKind::NvSwitch, 8);
  EXPECT_EQ(nvswitch.distance(0, 7), 1);
  const NodeTopology pcie(TopologyKind::Pcie, 8);
  EXPECT_EQ(pcie.distance(0, 1), 4);   // same PCIe switch: 2 + 2
  EXPECT_EQ(pcie.distance(0, 2), 8);   // same socket: up to the CPU and down
  EXPECT_EQ(pcie.distance(0, 7), 12);  // across sockets
  const NodeTopology pairs(TopologyKind::NvLinkPairs, 8);
  EXPECT_EQ(pairs.distance(4, 5), 1);
  EXPECT_EQ(pairs.distance(5, 6), 8);
}

TEST(NodeTopology, ChoosesTheBestConnectedFreeGpus) {
  const NodeTopology pcie(TopologyKind::Pcie, 8);
  EXPECT_EQ(pcie.choose_gpus(0xFF, 4), 0x0Fu);            // one socket
  EXPECT_EQ(pcie.choose_gpus(0b11111110, 2), 0b1100u);    // GPU 0 busy: the intact switch pair 2,3
  EXPECT_EQ(pcie.choose_gpus(0b00000001, 2), 0u);         // not enough free
  EXPECT_EQ(pcie.choose_gpus(0b10100000, 1), 0b100000u);  // one GPU: the lowest free
}

TEST(NetworkTopology, HopsByRack) {
  const NetworkTopology network({0, 0, 1, 1});
  EXPECT_EQ(network.hops(0, 0), 0);
  EXPECT_EQ(network.hops(0, 1), 2);
  EXPECT_EQ(network.hops(1, 2), 4);
  EXPECT_EQ(network.rack(3), 1u);
  EXPECT_EQ(network.rack_count(), 2u);
}

}  // namespace
}  // namespace sharesim
