// The built-in sharing policies, one line each, in the order `sharesim compare` lists them. Each
// policy's folder defines its entry (name, factory, compare default, demo listing).
#include "policies/exclusive_policy.h"
#include "policies/fractional/fractional_policy.h"
#include "policies/mig/mig_policy.h"
#include "policies/mps/mps_policy.h"
#include "policies/policy_registry.h"
#include "policies/timeslice/timeslice_policy.h"
#include "policies/vgpu/vgpu_policy.h"

namespace sharesim {

std::vector<PolicyEntry> builtin_policy_entries() {
  return {
      exclusive_policy_entry(), timeslice_policy_entry(), mps_policy_entry(),
      mig_policy_entry(),       vgpu_policy_entry(),      fractional_policy_entry(),
  };
}

}  // namespace sharesim
