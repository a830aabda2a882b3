#pragma once
// Runs many scenarios, each into its own output directory, several at a time on threads
// (each run owns its whole model; runs share only the read-only GPU catalog). A run whose
// directory already holds summary.json is not run again: ScenarioRun::write_outputs writes
// summary.json last and renames it into place, so its presence means the run finished, and a
// process killed at any moment leaves either a finished run or one that runs again. This is
// what makes `sharesim sweep` and `sharesim size` resumable.
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/cluster/gpu_catalog.h"
#include "sim/scenario/scenario.h"

namespace sharesim {

struct PooledRun {
  const Scenario* scenario = nullptr;
  std::string dir;  // its output directory
};

struct PoolProgress {
  std::size_t done = 0;  // finished, run now or earlier
  std::size_t total = 0;
  std::size_t executed = 0;  // run by this call
  double elapsed_s = 0;
};

struct PoolReport {
  std::size_t executed = 0;
  std::size_t reused = 0;  // finished by an earlier call
};

// True when `dir` holds a finished run.
bool run_is_finished(const std::string& dir);

// The finished run's summary.json. Throws InputError when it is missing or not JSON.
nlohmann::ordered_json read_run_summary(const std::string& dir);

// Runs every unfinished run, `threads` at a time, calling `progress` (under a lock) after each.
// The first error stops the handing out of runs; it is rethrown once the running ones end.
PoolReport run_pool(const std::vector<PooledRun>& runs, const GpuCatalog& catalog, unsigned threads,
                    const std::function<void(const PoolProgress&)>& progress = {});

// "[##########..........] 12/40 runs  35 s  ETA 1m 22s": the ETA is the mean time of the runs
// executed so far, times the runs left, over the threads.
std::string format_pool_progress(const PoolProgress& progress);

// The value of `path` ("metrics.jobs.wait_s.p95" or "/metrics/jobs/wait_s/p95") in a summary,
// or nullptr when it is absent.
const nlohmann::ordered_json* summary_value(const nlohmann::ordered_json& summary, const std::string& path);

// Checked after a command's first run, before the others: "" when `path` names a number (or
// null) in `summary`, the finished run's at `run_dir` (read once by the caller for all its
// paths), else the problem ("no such field in a run's summary.json (DIR/summary.json); expected
// a dotted path ..."), for an InputError naming where the user wrote the path (a sweep spec's
// /metrics/N, size's --target).
std::string metric_path_problem(const nlohmann::ordered_json& summary, const std::string& run_dir,
                                const std::string& path);

// The thread count of -j: TEXT as an integer 1..1024, or the machine's hardware threads when
// empty. InputError("-j", ...) otherwise.
unsigned parse_thread_count(const std::string& text);

}  // namespace sharesim
