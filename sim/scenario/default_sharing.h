#pragma once
// The `sharing` of a node pool that names none: the scenario schema's default for it
// (docs/scenario.schema.json, node_pool.sharing), a policy that hands out whole GPUs. Read from
// the schema so that sim/ itself names no policy.
#include <nlohmann/json.hpp>

namespace sharesim {

const nlohmann::json& default_pool_sharing();

}  // namespace sharesim
