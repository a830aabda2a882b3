#pragma once
// The policies that `sharesim profiles validate` checks, made as a run makes them: by the policy
// registry from a node pool's `sharing` config, with the built-in calibration profiles. A
// prediction is the policy's own compute_rates(), never a second implementation.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "policies/measured_profiles.h"
#include "sim/cluster/gpu_sharing.h"
#include "sim/cluster/resource_names.h"

namespace sharesim {

struct PolicyUnderTest {
  ResourceNames names;
  std::unique_ptr<GpuSharing> policy;
};

// One GPU of catalog model `gpu_id` shared as `sharing` says; InputError for an unknown model.
std::shared_ptr<PolicyUnderTest> make_validation_policy(const std::string& gpu_id, const nlohmann::json& sharing,
                                                        const MeasuredProfiles& measured = {});

// The policy's rates for `residents` (written into them as well).
std::vector<double> policy_rates(const GpuSharing& policy, std::vector<Resident>& residents);

double median_of(std::vector<double> values);

}  // namespace sharesim
