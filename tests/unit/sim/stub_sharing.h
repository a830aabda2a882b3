#pragma once
// A minimal sharing policy for tests that drive the scheduler and the runtime without
// policies/: each GPU advertises `units` of nvidia.com/gpu, admits at most `max_residents`
// pods (refusing with a fixed reason), and shares its time equally among its residents
// (processor sharing: n residents progress at 1/n each).
#include <memory>
#include <string>
#include <vector>

#include "sim/cluster/cluster.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/scenario/scenario.h"

namespace sharesim::test {

inline constexpr const char* kStubRefusal = "stub: GPU holds its maximum of pods";

class StubSharing final : public GpuSharing {
 public:
  StubSharing(ResourceId resource, std::int64_t units, std::size_t max_residents)
      : GpuSharing(SharingTraits("stub", UnitSpread::SeveralPerDevice)),
        resource_(resource),
        units_(units),
        max_residents_(max_residents) {}

  std::vector<ResourceQuantity> advertise() const override { return {{resource_, units_}}; }
  bool admit(const DeviceAsk& /*ask*/, std::int64_t /*free_units*/, std::span<const Resident> residents,
             std::string* reason) const override {
    if (residents.size() < max_residents_) return true;
    if (reason != nullptr) *reason = kStubRefusal;
    return false;
  }
  void compute_rates(std::span<Resident> residents) const override {
    for (Resident& r : residents) r.rate = 1.0 / static_cast<double>(residents.size());
  }

 private:
  ResourceId resource_;
  std::int64_t units_;
  std::size_t max_residents_;
};

// One pool of `nodes` nodes with `gpus_per_node` A100-80GB each, every GPU a StubSharing.
inline Cluster make_stub_cluster(std::int64_t nodes, std::int64_t gpus_per_node, std::int64_t units,
                                 std::size_t max_residents) {
  NodePoolSpec pool;
  pool.name = "stub";
  pool.nodes = nodes;
  pool.gpu = "A100-80GB";
  pool.gpus_per_node = gpus_per_node;
  pool.cpu_milli = 64'000;
  pool.memory_mib = 512 * 1024;
  pool.topology = "pcie";
  pool.sharing = nlohmann::json{{"policy", "stub"}};
  pool.pointer = "/cluster/node_pools/0";
  const SharingFactory factory = [units, max_residents](const NodePoolSpec&, const GpuModel&, ResourceNames& names) {
    return std::make_unique<StubSharing>(names.intern(kNvidiaGpu), units, max_residents);
  };
  return Cluster({pool}, GpuCatalog::builtin(), factory, "stub.json");
}

// A shape asking for `gpu_units` of nvidia.com/gpu (id 0) and a little cpu and memory.
inline PodShape stub_shape(std::int64_t gpu_units) {
  PodShape shape;
  shape.cpu_milli = 1000;
  shape.memory_mib = 1024;
  shape.gpu_resource = 0;
  shape.gpu_units = gpu_units;
  return shape;
}

}  // namespace sharesim::test
