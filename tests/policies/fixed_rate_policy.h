#pragma once
// A sharing policy that exists only in the tests, to prove that a policy plugs in from its own
// folder with one registration line: "fixed-rate" offers `slots` units of nvidia.com/gpu per GPU
// and runs every active resident at the same `rate`, however many share the GPU, so a job's run
// time is its work divided by that rate, exactly.
#include "policies/policy_entry.h"

namespace sharesim::testing {

PolicyEntry fixed_rate_policy_entry();

}  // namespace sharesim::testing
