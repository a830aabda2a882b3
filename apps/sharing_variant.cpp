#include "apps/sharing_variant.h"

#include <algorithm>
#include <optional>

#include "policies/policy_registry.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/json_pointer.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

bool has_gpus(const NodePoolSpec& pool) { return pool.gpus_per_node > 0; }

bool is_builtin(const std::string& name) { return find_sharing_policy(name) != nullptr; }

// A registered policy's default sharing object for one pool (its entry's compare default).
Json builtin_sharing(const std::string& policy, const NodePoolSpec& pool) {
  const PolicyEntry& entry = *find_sharing_policy(policy);
  return entry.compare_default ? entry.compare_default(pool.gpu) : Json{{"policy", policy}};
}

// Pool names and variant names share the scenario's name rule.
bool is_valid_name(const std::string& name) {
  if (name.empty() || name.front() == '-' || name.back() == '-') return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

const Json* scenario_variants(const Scenario& scenario) {
  const auto compare = scenario.document.find("compare");
  if (compare == scenario.document.end()) return nullptr;
  const auto variants = compare->find("variants");
  return variants == compare->end() ? nullptr : &*variants;
}

std::string variant_pointer(const std::string& name) { return pointer_append("/compare/variants", name); }

// Checks every scenario variant's name, listed or not, so that validate-like mistakes surface.
void check_variant_names(const Scenario& scenario) {
  const Json* variants = scenario_variants(scenario);
  if (variants == nullptr) return;
  for (auto entry = variants->begin(); entry != variants->end(); ++entry) {
    const std::string& name = entry.key();
    if (!is_valid_name(name)) {
      throw InputError(scenario.file, variant_pointer(name),
                       "expected a variant name of lowercase letters, digits and '-' that starts and ends with a "
                       "letter or digit, found " +
                           quote(name));
    }
    if (is_builtin(name)) {
      throw InputError(scenario.file, variant_pointer(name),
                       "variant name " + quote(name) +
                           " is a built-in policy name (its defaults: docs/scenario.md \"compare\"); choose another");
    }
  }
}

// A sharing object's policy name; InputError at `pointer` unless it is an object with a
// string `policy`.
std::string sharing_policy(const Json& sharing, const std::string& file, const std::string& pointer) {
  if (!sharing.is_object() || !sharing.contains("policy") || !sharing["policy"].is_string()) {
    throw InputError(file, pointer,
                     "expected a sharing object with a string \"policy\" (e.g. {\"policy\": \"mps\", \"replicas\": "
                     "4}), found " +
                         sharing.dump());
  }
  return sharing["policy"].get<std::string>();
}

}  // namespace

std::vector<std::string> builtin_sharing_names() { return sharing_policy_names(); }

Json SharingVariant::sharing_summary() const {
  Json first;
  bool same = true;
  for (const Json& config : sharing) {
    if (config.is_null()) continue;
    if (first.is_null()) {
      first = config;
    } else if (config != first) {
      same = false;
    }
  }
  if (same && !per_pool) return first;
  // Pools differ (vgpu types depend on the GPU) or only some change: name them. Pool names
  // are unique.
  Json by_pool = Json::object();
  for (std::size_t i = 0; i < sharing.size(); ++i) {
    if (!sharing[i].is_null()) by_pool[pools[i]] = sharing[i];
  }
  return by_pool;
}

SharingVariant sharing_variant_from_definition(const Scenario& scenario, const std::string& name,
                                               const Json& definition, const std::string& file,
                                               const std::string& pointer) {
  SharingVariant variant;
  variant.name = name;
  variant.builtin = false;
  variant.definition_file = file;
  variant.definition_pointer = pointer;
  for (const NodePoolSpec& pool : scenario.node_pools) variant.pools.push_back(pool.name);
  variant.sharing.assign(scenario.node_pools.size(), Json());
  if (!definition.is_object() || !definition.contains("pools")) {
    variant.policy = sharing_policy(definition, file, pointer);
    for (std::size_t i = 0; i < scenario.node_pools.size(); ++i) {
      if (has_gpus(scenario.node_pools[i])) variant.sharing[i] = definition;
    }
    return variant;
  }
  // Per pool: {"pools": {NAME: sharing object or built-in name}} and nothing else.
  variant.per_pool = true;
  for (auto key = definition.begin(); key != definition.end(); ++key) {
    if (key.key() != "pools") {
      throw InputError(file, pointer_append(pointer, key.key()),
                       "a per-pool variant has only \"pools\"; found also " + quote(key.key()));
    }
  }
  const Json& pools = definition["pools"];
  const std::string pools_pointer = pointer + "/pools";
  if (!pools.is_object() || pools.empty()) {
    throw InputError(
        file, pools_pointer,
        "expected an object of node pool name -> sharing object or built-in policy name, found " + pools.dump());
  }
  std::vector<std::string> gpu_pools;
  for (const NodePoolSpec& pool : scenario.node_pools) {
    if (has_gpus(pool)) gpu_pools.push_back(pool.name);
  }
  std::vector<std::string> policies;
  for (auto entry = pools.begin(); entry != pools.end(); ++entry) {
    const std::string where = pointer_append(pools_pointer, entry.key());
    const auto pool = std::find(variant.pools.begin(), variant.pools.end(), entry.key());
    const std::size_t index = static_cast<std::size_t>(pool - variant.pools.begin());
    if (pool == variant.pools.end() || !has_gpus(scenario.node_pools[index])) {
      const std::optional<std::string> suggestion = closest_match(entry.key(), gpu_pools);
      throw InputError(
          file, where,
          "no node pool with GPUs is named " + quote(entry.key()) + " in " + scenario.file + "; " +
              (suggestion ? "did you mean " + quote(*suggestion) + "?" : "expected one of " + quoted_list(gpu_pools)));
    }
    std::string policy;
    if (entry->is_string()) {
      policy = entry->get<std::string>();
      if (!is_builtin(policy)) {
        const std::optional<std::string> suggestion = closest_match(policy, builtin_sharing_names());
        throw InputError(file, where,
                         "expected a sharing object or a built-in policy name, found " + quote(policy) +
                             (suggestion ? "; did you mean " + quote(*suggestion) + "?" : ""));
      }
      variant.sharing[index] = builtin_sharing(policy, scenario.node_pools[index]);
    } else {
      policy = sharing_policy(*entry, file, where);
      variant.sharing[index] = *entry;
    }
    if (std::find(policies.begin(), policies.end(), policy) == policies.end()) policies.push_back(policy);
  }
  for (const std::string& policy : policies) variant.policy += (variant.policy.empty() ? "" : "+") + policy;
  return variant;
}

SharingVariant sharing_variant(const Scenario& scenario, const std::string& name, const std::string& option) {
  check_variant_names(scenario);
  if (is_builtin(name)) {
    SharingVariant variant;
    variant.name = name;
    variant.policy = name;
    for (const NodePoolSpec& pool : scenario.node_pools) {
      variant.sharing.push_back(has_gpus(pool) ? builtin_sharing(name, pool) : Json());
      variant.pools.push_back(pool.name);
    }
    return variant;
  }
  const Json* variants = scenario_variants(scenario);
  if (variants == nullptr || !variants->contains(name)) {
    std::vector<std::string> known = builtin_sharing_names();
    if (variants != nullptr) {
      for (auto entry = variants->begin(); entry != variants->end(); ++entry) known.push_back(entry.key());
    }
    const std::optional<std::string> suggestion = closest_match(name, known);
    throw InputError(option, "",
                     "unknown policy or variant " + quote(name) + "; " +
                         (suggestion ? "did you mean " + quote(*suggestion) + "?"
                                     : "expected one of " + quoted_list(known) +
                                           " (variants come from the scenario's compare.variants)"));
  }
  return sharing_variant_from_definition(scenario, name, (*variants)[name], scenario.file, variant_pointer(name));
}

Scenario apply_sharing_variant(const Scenario& scenario, const SharingVariant& variant) {
  Scenario copy = scenario;
  Json& pools = copy.document["cluster"]["node_pools"];
  for (std::size_t i = 0; i < copy.node_pools.size(); ++i) {
    if (variant.sharing[i].is_null()) continue;
    copy.node_pools[i].sharing = nlohmann::json(variant.sharing[i]);
    pools[i]["sharing"] = variant.sharing[i];
    // An override within this sharing (sharing_variant_overrides', or a --set) no longer says
    // what the pool has: an error there is the variant's, which rethrow_for_variant names,
    // not "(value from ...)" of an override.
    const std::string sharing = copy.node_pools[i].pointer + "/sharing";
    std::erase_if(copy.applied_overrides,
                  [&](const AppliedOverride& o) { return pointer_within(o.pointer, sharing); });
  }
  return copy;
}

std::vector<Override> sharing_variant_overrides(const SharingVariant& variant) {
  std::vector<Override> overrides;
  for (std::size_t i = 0; i < variant.sharing.size(); ++i) {
    if (variant.sharing[i].is_null()) continue;
    overrides.push_back({"cluster.node_pools." + std::to_string(i) + ".sharing", variant.sharing[i].dump(),
                         "sharing variant " + quote(variant.name)});
  }
  return overrides;
}

void rethrow_for_variant(const InputError& e, const Scenario& scenario, const SharingVariant& variant,
                         const std::string& option) {
  if (e.file() == scenario.file) {
    for (std::size_t i = 0; i < scenario.node_pools.size(); ++i) {
      const NodePoolSpec& pool = scenario.node_pools[i];
      const std::string sharing = pool.pointer + "/sharing";
      if (variant.sharing[i].is_null() || !pointer_within(e.where(), sharing)) continue;
      const std::string rest = e.where().substr(sharing.size());
      const std::string on_pool = " (on node pool " + quote(pool.name) + ", GPU " + pool.gpu + ")";
      if (variant.per_pool) {
        const std::string entry = pointer_append(variant.definition_pointer + "/pools", pool.name);
        throw InputError(variant.definition_file, entry + rest, e.problem() + on_pool);
      }
      if (!variant.builtin)
        throw InputError(variant.definition_file, variant.definition_pointer + rest, e.problem() + on_pool);
      throw InputError(option, "",
                       quote(variant.name) + ": " + e.problem() + " (built-in default " + variant.sharing[i].dump() +
                           " on node pool " + quote(pool.name) + " of " + scenario.file + ")");
    }
  }
  throw InputError(e.file(), e.where(), e.problem() + " (sharing variant " + quote(variant.name) + ")");
}

}  // namespace sharesim
