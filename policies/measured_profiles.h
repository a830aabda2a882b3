#pragma once
// What the run's workload profiles measured, handed to every policy factory (policies/
// policy_registry.h): MIG slice speeds (MIG policy) and the concurrent-sharing interference
// parameters and measured pair speeds (MPS policy). Supplied by the caller that holds the
// profile library (apps/), because policies/ may not include workloads/. Each is keyed by
// PhaseDemand::profile (1 + index in the run's profile list; 0 = no profile); an empty function
// means nothing measured.
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "sim/cluster/interference.h"

namespace sharesim {

// A workload profile's measured speed on a MIG instance relative to the 7g instance of the same
// GPU model, where it was measured; nullopt elsewhere.
using MeasuredMigSpeed =
    std::function<std::optional<double>(std::uint32_t profile, std::string_view gpu_id, std::string_view mig_profile)>;

// The fitted interference parameters of a profile; nullptr where the profile has none.
using MeasuredInterference = std::function<const InterferenceParams*(std::uint32_t profile)>;

// The measured speed of `profile` running concurrently beside `partner` on GPU model `gpu_id`,
// relative to running alone there; nullopt where that pair was not measured on that model.
using MeasuredPairSpeed =
    std::function<std::optional<double>(std::uint32_t profile, std::uint32_t partner, std::string_view gpu_id)>;

struct MeasuredProfiles {
  MeasuredMigSpeed mig_speed;
  MeasuredInterference interference;
  MeasuredPairSpeed pair_speed;
};

}  // namespace sharesim
