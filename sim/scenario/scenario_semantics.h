#pragma once
// Checks on a scenario that a JSON Schema cannot express: GPU models that must exist in
// the catalog, pool names that must be unique, pods that no node could ever hold,
// durations that overflow, files that must be readable.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/cluster/gpu_catalog.h"
#include "sim/scenario/schema_validator.h"

namespace sharesim {

struct ScenarioIssue {
  std::string pointer;  // the value at fault
  std::string problem;  // "unknown GPU model \"A100-80G\"; did you mean \"A100-80GB\"? (see `sharesim gpus`)"
  bool capacity = false;  // a pod or gang no node could ever hold: the loader throws a CapacityError
};

// Every issue found, in no particular order (the loader reports the one that comes
// first in the file). Precondition: `document` passed the schema, and `uses` are that
// validation's definition uses. Relative file paths resolve against `base_dir`.
std::vector<ScenarioIssue> find_semantic_issues(const nlohmann::ordered_json& document,
                                                const std::vector<DefinitionUse>& uses, const GpuCatalog& catalog,
                                                const std::string& base_dir);

}  // namespace sharesim
