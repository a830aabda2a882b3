#include "policies/policy_registry.h"

#include <array>
#include <functional>

#include "policies/exclusive_policy.h"
#include "sim/scenario/input_error.h"

namespace sharesim {
namespace {

struct PolicyEntry {
  const char* name;
  // Checks the config (throwing InputError) and returns a maker of per-GPU objects.
  std::function<std::unique_ptr<GpuSharing>(const nlohmann::json& config, const GpuModel& model, ResourceNames& names,
                                            const std::string& file, const std::string& pointer)>
      make;
};

void reject_unknown_keys(const nlohmann::json& config, std::initializer_list<const char*> allowed,
                         const std::string& file, const std::string& pointer) {
  for (const auto& [key, value] : config.items()) {
    bool known = false;
    for (const char* name : allowed) known = known || key == name;
    if (!known) {
      std::string list;
      for (const char* name : allowed) list += std::string(list.empty() ? "" : ", ") + "\"" + name + "\"";
      throw InputError(
          file, pointer + "/" + key,
          "unknown key \"" + key + "\" for sharing policy \"" + config.value("policy", "") + "\"; allowed: " + list);
    }
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
  std::string known;
  for (const PolicyEntry& entry : kPolicies) known += std::string(known.empty() ? "" : ", ") + "\"" + entry.name + "\"";
  for (const char* planned : kPlannedPolicies) {
    if (name == planned) {
      throw InputError(
          file, pointer,
          "sharing policy \"" + name + "\" is not implemented in this version of sharesim; available: " + known);
    }
  }
  throw InputError(file, pointer, "unknown sharing policy \"" + name + "\"; expected one of " + known);
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
