#include "policies/policy_registry.h"

#include <algorithm>
#include <array>
#include <optional>

#include "policies/exclusive_policy.h"
#include "sim/scenario/did_you_mean.h"
#include "sim/scenario/error_text.h"
#include "sim/scenario/input_error.h"

namespace sharesim {
namespace {

struct PolicyEntry {
  const char* name;
  // Checks the config (throwing InputError) and makes one GPU's policy object.
  std::unique_ptr<GpuSharing> (*make)(const nlohmann::json& config, const GpuModel& model, ResourceNames& names,
                                      const std::string& file, const std::string& pointer);
};

void reject_unknown_keys(const nlohmann::json& config, const std::vector<std::string>& allowed, const std::string& file,
                         const std::string& pointer) {
  for (const auto& [key, value] : config.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    const std::optional<std::string> suggestion = closest_match(key, allowed);
    throw InputError(
        file, pointer + "/" + key,
        "unknown key " + quote(key) + " for sharing policy " + quote(config.value("policy", "")) +
            (suggestion ? "; did you mean " + quote(*suggestion) + "?" : "; allowed: " + quoted_list(allowed)));
  }
}

const std::array<PolicyEntry, 1> kPolicies{{
    {"exclusive",
     [](const nlohmann::json& config, const GpuModel&, ResourceNames& names, const std::string& file,
        const std::string& pointer) -> std::unique_ptr<GpuSharing> {
       reject_unknown_keys(config, {"policy"}, file, pointer);
       return std::make_unique<ExclusivePolicy>(names.intern(kNvidiaGpu));
     }},
}};

// Policies the design names that later issues add: reported as such, never faked.
constexpr std::array<const char*, 5> kPlannedPolicies{"timeslice", "mps", "mig", "vgpu", "fractional"};

const PolicyEntry& find_policy(const NodePoolSpec& pool, const std::string& file) {
  const std::string pointer = pool.pointer + "/sharing/policy";
  const auto policy = pool.sharing.find("policy");
  if (policy == pool.sharing.end() || !policy->is_string()) {
    throw InputError(file, pointer, "expected a sharing policy name (a string)");
  }
  const std::string name = policy->get<std::string>();
  for (const PolicyEntry& entry : kPolicies) {
    if (name == entry.name) return entry;
  }
  const std::vector<std::string> known = sharing_policy_names();
  for (const char* planned : kPlannedPolicies) {
    if (name == planned) {
      throw InputError(file, pointer,
                       "sharing policy " + quote(name) +
                           " is not implemented in this version of sharesim; available: " + quoted_list(known));
    }
  }
  const std::optional<std::string> suggestion = closest_match(name, known);
  throw InputError(
      file, pointer,
      "unknown sharing policy " + quote(name) + "; " +
          (suggestion ? "did you mean " + quote(*suggestion) + "?" : "expected one of " + quoted_list(known)));
}

}  // namespace

SharingFactory make_sharing_factory(const std::string& scenario_file) {
  return [scenario_file](const NodePoolSpec& pool, const GpuModel& model, ResourceNames& names) {
    const PolicyEntry& entry = find_policy(pool, scenario_file);
    return entry.make(pool.sharing, model, names, scenario_file, pool.pointer + "/sharing");
  };
}

std::vector<std::string> sharing_policy_names() {
  std::vector<std::string> names;
  for (const PolicyEntry& entry : kPolicies) names.emplace_back(entry.name);
  return names;
}

}  // namespace sharesim
