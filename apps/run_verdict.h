#pragma once
// What a table of figures alone does not say: warnings for a run that placed nothing or left
// most of its jobs pending, and compare's verdict, one line per objective (every job started,
// the job SLO, each service's request SLO): which variants meet it and which of those needs the
// fewest GPUs at peak. docs/outputs.md "Warnings and verdict".
#include <string>
#include <vector>

#include "apps/scenario_run.h"

namespace sharesim {

// "policy mig placed no job: 16 jobs pending, e.g. 0/2 nodes are available: ..." when no job
// ever started; "... left 232 of 400 jobs pending at the end (...)" when more than half are
// pending at the end; nothing otherwise. `label` names the run ("policy mig", "run").
std::vector<std::string> run_warnings(const ScenarioRun& run, const std::string& label);

struct VerdictCandidate {
  std::string name;  // the variant
  const ScenarioRun* run = nullptr;
};

// One line per objective, in a fixed order; empty when no run has finished.
std::vector<std::string> compare_verdict(const Scenario& scenario, const std::vector<VerdictCandidate>& candidates);

}  // namespace sharesim
