#pragma once
// The sharing policies this build knows, by the name a node pool's `sharing.policy` uses.
// Adding a policy = its own folder in policies/ plus one line in registered_policies.cpp (a
// test adds its own with register_sharing_policy).
#include <string>
#include <string_view>
#include <vector>

#include "policies/calibration/calibration_profile.h"
#include "policies/measured_profiles.h"
#include "policies/policy_entry.h"
#include "sim/cluster/cluster.h"

namespace sharesim {

// The built-in policies, in the order `sharesim compare` lists them (registered_policies.cpp).
std::vector<PolicyEntry> builtin_policy_entries();

// Every registered policy: the built-in ones, then those added by register_sharing_policy.
const std::vector<PolicyEntry>& sharing_policies();
// The entry named `name`, nullptr when none is.
const PolicyEntry* find_sharing_policy(std::string_view name);
// Adds a policy beside the built-in ones (test policies); returns true so that one line at
// namespace scope registers it. Call before any run starts (runs on other threads read the
// registry); the name must be new.
bool register_sharing_policy(PolicyEntry entry);

std::vector<std::string> sharing_policy_names();
// Every registered policy's per-device quantities, for the workload reader (WorkloadContext).
const PerDeviceResourceRules& registered_per_device_resources();
// The policies `sharesim compare` runs when given no --policies, comma-separated.
std::string demo_policy_list();

// Makes each GPU's policy object from its pool's `sharing` config and the GPU model's
// calibration profile; throws InputError naming `scenario_file` and the JSON pointer of a bad
// or unknown setting. `calibration` must outlive the factory. `measured` gives the policies what
// the workload profiles measured (MIG slice speeds, interference parameters, pair speeds; none
// when empty).
SharingFactory make_sharing_factory(const std::string& scenario_file, const CalibrationSet& calibration,
                                    MeasuredProfiles measured = {});

}  // namespace sharesim
