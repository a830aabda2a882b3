#pragma once
// `--set PATH=VALUE`: edits to a scenario document made before it is validated.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/scenario.h"

namespace sharesim {

// The override's path as a JSON pointer: "workload.generators.0.count" and
// "/workload/generators/0/count" both give "/workload/generators/0/count". Throws
// InputError("--set", path, ...) on an empty path.
std::string override_pointer(const Override& override_spec);

// Sets the value at the override's path. Missing keys are created on existing objects
// (and missing objects on the way, so `scheduler.queue` works without a scheduler
// section); an array index must name an existing element ("0" or digits without a leading
// zero, as RFC 6901 has it). Throws InputError with file "--set" and where = the path as the
// user wrote it. Returns the JSON pointer of what the override wrote: the shallowest key it
// created ("/nosuch" for nosuch.key=3: an error about that key came from the override too), else
// its whole path.
std::string apply_override(nlohmann::ordered_json& document, const Override& override_spec);

}  // namespace sharesim
