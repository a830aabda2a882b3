#include "policies/policy_registry.h"

#include <optional>
#include <stdexcept>

#include "policies/sharing_config.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

void add_per_device_rules(const PolicyEntry& entry, PerDeviceResourceRules& all) {
  const PerDeviceResourceRules& own = entry.per_device_resources;
  all.rules.insert(all.rules.end(), own.rules.begin(), own.rules.end());
  if (own.gpu_fraction_percent.empty()) return;
  if (!all.gpu_fraction_percent.empty()) {
    throw std::logic_error("sharing policy \"" + entry.name +
                           "\" also says how a trace pod's fraction of a GPU is asked; one policy may");
  }
  all.gpu_fraction_percent = own.gpu_fraction_percent;
}

std::vector<PolicyEntry>& registry() {
  static std::vector<PolicyEntry> entries = builtin_policy_entries();
  return entries;
}

// Every entry's per-device quantities together.
PerDeviceResourceRules& per_device_rules() {
  static PerDeviceResourceRules all = [] {
    PerDeviceResourceRules rules;
    for (const PolicyEntry& entry : registry()) add_per_device_rules(entry, rules);
    return rules;
  }();
  return all;
}

const PolicyEntry& find_policy(const NodePoolSpec& pool, const std::string& file) {
  const std::string pointer = pool.pointer + "/sharing/policy";
  const auto policy = pool.sharing.find("policy");
  if (policy == pool.sharing.end() || !policy->is_string()) {
    throw InputError(file, pointer, "expected a sharing policy name (a string)");
  }
  const std::string name = policy->get<std::string>();
  if (const PolicyEntry* entry = find_sharing_policy(name)) return *entry;
  const std::vector<std::string> known = sharing_policy_names();
  const std::optional<std::string> suggestion = closest_match(name, known);
  throw InputError(
      file, pointer,
      "unknown sharing policy " + quote(name) + "; " +
          (suggestion ? "did you mean " + quote(*suggestion) + "?" : "expected one of " + quoted_list(known)));
}

}  // namespace

const std::vector<PolicyEntry>& sharing_policies() { return registry(); }

const PolicyEntry* find_sharing_policy(std::string_view name) {
  for (const PolicyEntry& entry : registry()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

bool register_sharing_policy(PolicyEntry entry) {
  if (find_sharing_policy(entry.name) != nullptr) {
    throw std::logic_error("sharing policy \"" + entry.name + "\" is registered twice");
  }
  add_per_device_rules(entry, per_device_rules());
  registry().push_back(std::move(entry));
  return true;
}

std::vector<std::string> sharing_policy_names() {
  std::vector<std::string> names;
  for (const PolicyEntry& entry : registry()) names.push_back(entry.name);
  return names;
}

const PerDeviceResourceRules& registered_per_device_resources() { return per_device_rules(); }

std::string demo_policy_list() {
  std::string list;
  for (const PolicyEntry& entry : registry()) {
    if (entry.in_demo) list += (list.empty() ? "" : ",") + entry.name;
  }
  return list;
}

SharingFactory make_sharing_factory(const std::string& scenario_file, const CalibrationSet& calibration,
                                    MeasuredProfiles measured) {
  return
      [scenario_file, &calibration, measured](const NodePoolSpec& pool, const GpuModel& model, ResourceNames& names) {
        const PolicyEntry& entry = find_policy(pool, scenario_file);
        const SharingConfig config(pool.sharing, scenario_file, pool.pointer + "/sharing");
        return entry.make({config, model, names, calibration.for_gpu(model.id), measured});
      };
}

}  // namespace sharesim
