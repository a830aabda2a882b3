#include "tests/policies/fixed_rate_policy.h"

#include <memory>

#include "policies/device_plugin.h"
#include "policies/sharing_config.h"

namespace sharesim::testing {
namespace {

class FixedRatePolicy final : public GpuSharing {
 public:
  FixedRatePolicy(ResourceId gpu, std::int64_t slots, double rate)
      : GpuSharing(SharingTraits("fixed-rate", UnitSpread::SeveralPerDevice)),
        gpu_(gpu),
        slots_(slots),
        rate_(rate) {}

  std::vector<ResourceQuantity> advertise() const override { return {{gpu_, slots_}}; }
  bool admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> /*residents*/,
             std::string* reason) const override {
    return admit_free_units(ask, free_units, kNvidiaGpu, reason);
  }
  void compute_rates(std::span<Resident> residents) const override {
    for (Resident& resident : residents) resident.rate = is_active(resident) ? rate_ : 0.0;
  }

 private:
  ResourceId gpu_;
  std::int64_t slots_;
  double rate_;
};

}  // namespace

PolicyEntry fixed_rate_policy_entry() {
  PolicyEntry entry;
  entry.name = "fixed-rate";
  entry.make = [](const PolicyBuildContext& build) -> std::unique_ptr<GpuSharing> {
    build.config.reject_unknown_keys({"slots", "rate"});
    return std::make_unique<FixedRatePolicy>(build.names.intern(kNvidiaGpu), build.config.integer("slots", 2, 1, 64),
                                             build.config.number("rate", 0.5, 0.01, 1.0));
  };
  entry.compare_default = [](const std::string& /*gpu_id*/) {
    return nlohmann::ordered_json{{"policy", "fixed-rate"}, {"rate", 0.25}};
  };
  return entry;
}

}  // namespace sharesim::testing
