#pragma once
// Sharing variants: a named change to the `sharing` of a scenario's node pools, used by
// `sharesim compare` (one column per variant) and `sharesim sweep` / `size` (one axis).
//
// A variant is one of:
// - a built-in policy name ("mig"): that policy's defaults on every node pool with GPUs;
// - a sharing object ({"policy": "timeslice", "replicas": 8}): that object on every GPU pool;
// - per pool ({"pools": {"inference": {"policy": "mig", ...}, "train": "mps"}}): the named
//   pools get the given sharing object (or a built-in name's defaults for that pool); every
//   other pool keeps the sharing the scenario gives it.
// Named variants come from the scenario's `compare.variants` or from a sweep spec's
// `variants`; docs/scenario.md "compare".
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sim/input/input_error.h"
#include "sim/scenario/scenario.h"

namespace sharesim {

// The registered policy names (policies/policy_registry.h), in the order compare lists them.
std::vector<std::string> builtin_sharing_names();

struct SharingVariant {
  std::string name;       // as --policies lists it: "timeslice", or a named variant "ts8"
  std::string policy;     // its sharing.policy; per-pool variants join their pools' policies: "mig+mps"
  bool builtin = true;    // false: a named variant (scenario or sweep spec)
  bool per_pool = false;  // true: only the pools it names change
  // The sharing object each node pool gets, in scenario order; null for a pool that keeps the
  // scenario's own (pools without GPUs, and pools a per-pool variant does not name).
  std::vector<nlohmann::ordered_json> sharing;
  std::vector<std::string> pools;  // the node pools' names, parallel to `sharing`
  // Where a named variant's definition is written, for error messages: the file and the JSON
  // pointer of its value ("/compare/variants/ts8").
  std::string definition_file;
  std::string definition_pointer;
  // The sharing object shown in tables and files: the config when every changed pool gets the
  // same and the variant is not per pool, else {"<pool>": config, ...} over the changed pools.
  nlohmann::ordered_json sharing_summary() const;
};

// The variant `name` stands for in `scenario`: a built-in name or one of the scenario's
// compare.variants. Throws InputError (`option`, with a did-you-mean over the built-in and the
// scenario's names) for an unknown name, and (the scenario file, /compare/variants/NAME) for a
// badly named or badly formed scenario variant.
SharingVariant sharing_variant(const Scenario& scenario, const std::string& name,
                               const std::string& option = "--policies");

// A variant defined by `definition` (a sharing object or {"pools": {...}}) written at
// `file`:`pointer` (a sweep spec's variants), named `name`.
SharingVariant sharing_variant_from_definition(const Scenario& scenario, const std::string& name,
                                               const nlohmann::ordered_json& definition, const std::string& file,
                                               const std::string& pointer);

// The scenario with the variant's pools' sharing replaced, in the typed pools and in the
// document (which summary.json echoes as the scenario that ran).
Scenario apply_sharing_variant(const Scenario& scenario, const SharingVariant& variant);

// Overrides ("cluster.node_pools.I.sharing" = the variant's object) that give a scenario the
// variant's sharing while it loads. The loader checks that the cluster can hold every gang, and
// it counts whole GPUs on an exclusive pool but not on a shared one; loading with these makes
// that check see the cluster as the variant configures it, so that a size or grid point that
// only the scenario's own sharing is too small for is not refused (apply_sharing_variant after
// loading is too late for it).
std::vector<Override> sharing_variant_overrides(const SharingVariant& variant);

// Restates an error raised while building or running a variant's scenario so that it points at
// what the user wrote: a named variant's own definition, or the `option` entry of a built-in
// default.
[[noreturn]] void rethrow_for_variant(const InputError& e, const Scenario& scenario, const SharingVariant& variant,
                                      const std::string& option = "--policies");

}  // namespace sharesim
