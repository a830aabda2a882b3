#pragma once
// The whole fragmentation experiment (Weng et al., ATC'23, Sec. 6): traces x policies x
// seeds, run in parallel, summarised per (trace, policy, arrival bucket) by the median and
// quartiles over seeds, and plotted (unallocated GPU % against arrived workload %) by gnuplot.
// Outputs are byte-identical for any thread count: each run is independent and its result is
// stored by its index.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "experiments/fragmentation/node_chooser.h"

namespace sharesim {

// The 17 openb pod lists of the paper's evaluation: default; cpu050/100/200/250 (more CPU-only
// pods); gpushare40/60/80/100 (more sharing pods); gpuspec10/20/25/33 (GPU-model constraints,
// Sec. 6.5 per the trace README); multigpu20/30/40/50 (more multi-GPU pods).
const std::vector<std::string>& fragmentation_sweep_traces();
// The file of a trace in the openb folder: openb_pod_list_<trace>.csv.
std::string openb_pod_list_path(const std::string& pods_dir, const std::string& trace);

struct SweepSpec {
  std::string nodes_path;
  std::string pods_dir;
  std::vector<std::string> traces;
  std::vector<PlacementExperimentPolicy> policies;
  std::vector<std::uint64_t> seeds;
  double inflation = 1.3;
  unsigned threads = 1;
  std::string output_dir;
  bool plot = true;
};

struct SweepReport {
  std::size_t runs = 0;
  std::vector<std::string> files;  // written, relative to output_dir
};

// Runs the sweep and writes, in output_dir: sweep.csv (quartiles per trace, policy, bucket),
// runs.csv (one line per run), summary.json, and with `plot` plots/<trace>.{dat,gp,svg}.
// `progress(done, total)` is called from worker threads after each run (may be empty).
SweepReport run_sweep(const SweepSpec& spec, const std::function<void(std::size_t, std::size_t)>& progress = {});

}  // namespace sharesim
