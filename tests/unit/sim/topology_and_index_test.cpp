#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/cluster/network_topology.h"
#include "sim/cluster/node_topology.h"
#include "sim/core/random_stream.h"
#include "sim/input/input_error.h"
#include "sim/sched/free_units_index.h"
#include "sim/sched/job.h"  // PodShape, which stub_sharing.h uses
#include "stub_sharing.h"

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

// A pool of `nodes` one-GPU nodes of the stub policy, `nodes_per_rack` as the scenario gives it.
NodePoolSpec stub_pool(const std::string& name, std::int64_t nodes, std::int64_t nodes_per_rack, std::size_t index) {
  NodePoolSpec pool;
  pool.name = name;
  pool.nodes = nodes;
  pool.gpu = "A100-80GB";
  pool.gpus_per_node = 1;
  pool.cpu_milli = 64'000;
  pool.memory_mib = 262'144;
  pool.topology = "pcie";
  pool.nodes_per_rack = nodes_per_rack;
  pool.sharing = nlohmann::json{{"policy", "stub"}};
  pool.pointer = "/cluster/node_pools/" + std::to_string(index);
  return pool;
}

Cluster stub_cluster(const std::vector<NodePoolSpec>& pools) {
  const SharingFactory factory = [](const NodePoolSpec&, const GpuModel&, ResourceNames& names) {
    return std::make_unique<test::StubSharing>(names.intern(kNvidiaGpu), 1, 1);
  };
  return Cluster(pools, GpuCatalog::builtin(), factory, "s.json");
}

// docs/scenario.md: nodes_per_rack at or above the pool's node count is one rack. 2^32 was cast
// to a uint32 0 and divided by (SIGFPE in every command), 2^32 + 1 wrapped to 1 (every node its
// own rack: a gang went p-0+p-0 where one rack gives p-0+p-3).
TEST(NetworkTopology, NodesPerRackAtOrAboveThePoolsNodesIsOneRack) {
  const std::int64_t beyond_32_bits = std::int64_t{1} << 32;
  for (const std::int64_t per_rack : {std::int64_t{4}, std::int64_t{5}, beyond_32_bits, beyond_32_bits + 1,
                                      std::numeric_limits<std::int64_t>::max()}) {
    const Cluster cluster = stub_cluster({stub_pool("p", 4, per_rack, 0), stub_pool("q", 3, 2, 1)});
    const NetworkTopology& network = cluster.network();
    EXPECT_EQ(network.rack_count(), 3u) << "nodes_per_rack " << per_rack;  // p: one; q: two
    EXPECT_EQ(network.hops(0, 3), 2) << "nodes_per_rack " << per_rack;
    EXPECT_EQ(network.rack(3), 0u);
    EXPECT_EQ(network.rack(4), 1u);  // q's first rack follows p's only one
    EXPECT_EQ(network.rack(6), 2u);
  }
  // Below the node count, the pool is split as before.
  const Cluster split = stub_cluster({stub_pool("p", 4, 3, 0)});
  EXPECT_EQ(split.network().rack_count(), 2u);
  EXPECT_EQ(split.network().rack(3), 1u);
}

// A pool label on a key the cluster sets itself (the kubelet's kubernetes.io/hostname, GPU
// feature discovery's nvidia.com/gpu.*) was overwritten without a word: "gpu-box" vanished from
// describe-nodes and a node selector on it matched no node. It is refused at the label.
TEST(ClusterLabels, APoolLabelTheClusterSetsIsRefusedAtTheLabel) {
  const auto rejection = [](const std::string& key) {
    NodePoolSpec pool = stub_pool("a", 2, 0, 0);
    pool.labels = {{"zone", "b"}, {key, "gpu-box"}};
    try {
      stub_cluster({pool});
    } catch (const InputError& error) {
      return error;
    }
    ADD_FAILURE() << "expected an InputError for label " << key;
    return InputError("", "", "");
  };
  const std::string product = GpuCatalog::builtin().find("A100-80GB")->product;
  const struct {
    const char* key;
    const char* pointer;
    std::string value;
  } cases[] = {{"kubernetes.io/hostname", "/cluster/node_pools/0/labels/kubernetes.io~1hostname", "a-0"},
               {"nvidia.com/gpu.product", "/cluster/node_pools/0/labels/nvidia.com~1gpu.product", product},
               {"nvidia.com/gpu.sharing-strategy", "/cluster/node_pools/0/labels/nvidia.com~1gpu.sharing-strategy",
                "none"}};  // set by the policy (GpuSharing::add_feature_labels)
  for (const auto& c : cases) {
    const InputError error = rejection(c.key);
    EXPECT_EQ(error.file(), "s.json");
    EXPECT_EQ(error.where(), c.pointer);
    EXPECT_EQ(error.problem(), std::string("expected a label the cluster does not set itself, found \"") + c.key +
                                   "\" (the cluster gives node \"a-0\" \"" + c.value +
                                   "\", as the kubelet sets kubernetes.io/hostname and GPU feature discovery "
                                   "nvidia.com/gpu.*; docs/kubernetes.md \"Node labels\")");
  }
  // A label of the pool's own is on every node, beside the cluster's.
  NodePoolSpec pool = stub_pool("a", 2, 0, 0);
  pool.labels = {{"zone", "b"}};
  const Cluster cluster = stub_cluster({pool});
  EXPECT_EQ(cluster.node(1).labels.at("zone"), "b");
  EXPECT_EQ(cluster.node(1).labels.at("kubernetes.io/hostname"), "a-1");
  EXPECT_EQ(cluster.node(1).labels.at("nvidia.com/gpu.product"), product);
  // A CPU-only pool gets no GPU labels, so it may carry one of its own.
  NodePoolSpec cpu = stub_pool("c", 1, 0, 0);
  cpu.gpus_per_node = 0;
  cpu.labels = {{"nvidia.com/gpu.product", "none-here"}};
  EXPECT_EQ(stub_cluster({cpu}).node(0).labels.at("nvidia.com/gpu.product"), "none-here");
}

}  // namespace
}  // namespace sharesim
