#pragma once
// The sharing policies this build knows, by the name a node pool's `sharing.policy` uses.
// Adding a policy = its own file(s) in policies/ plus one line in policy_registry.cpp.
#include <string>
#include <vector>

#include "policies/calibration/calibration_profile.h"
#include "policies/measured_profiles.h"
#include "sim/cluster/cluster.h"

namespace sharesim {

// Makes each GPU's policy object from its pool's `sharing` config and the GPU model's
// calibration profile; throws InputError naming `scenario_file` and the JSON pointer of a bad
// or unknown setting. `calibration` must outlive the factory. `measured` gives the policies what
// the workload profiles measured (MIG slice speeds, interference parameters, pair speeds; none
// when empty).
SharingFactory make_sharing_factory(const std::string& scenario_file, const CalibrationSet& calibration,
                                    MeasuredProfiles measured = {});

std::vector<std::string> sharing_policy_names();

}  // namespace sharesim
