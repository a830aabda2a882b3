#pragma once
// The short table `sharesim run` prints after a run.
#include <string>

#include "apps/scenario_run.h"

namespace sharesim {

std::string format_summary_table(const ScenarioRun& run, const std::string& output_dir);

}  // namespace sharesim
