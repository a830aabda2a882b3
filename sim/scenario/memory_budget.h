#pragma once
// A scenario's memory need, estimated from its document before anything is built, and the
// budget it must fit (docs/reliability.md "Memory budget"). A run keeps a record per job, per
// GPU and per time-series sample until it writes its outputs, so a scenario with 1e12 nodes or
// a 1 ns sampling interval would climb until the machine runs out of memory; it is refused up
// front instead, with the estimate in the message. The scenario key `memory_limit_gib` (or
// `--set memory_limit_gib=N`) raises the budget.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sharesim {

// Bytes each item costs at the peak of a run, measured with `/usr/bin/time -f %M` on runs that
// differ in one count only (docs/reliability.md "Memory budget", where the runs are listed).
inline constexpr double kBytesPerGpu = 700;        // node and GPU model, policy, usage counters
inline constexpr double kBytesPerNode = 500;       // every node: record, name, rack, hostname label
inline constexpr double kBytesPerGpuNode = 700;    // a node with GPUs: the labels GPU feature discovery sets
inline constexpr double kBytesPerJob = 360;        // job record, pod, its row while outputs are written
inline constexpr double kBytesPerExtraPod = 100;   // each pod of a gang beyond its first: placement, row text
inline constexpr double kBytesPerSample = 64;      // one time-series sample (TimeseriesSample)
inline constexpr double kBytesPerLoggedJob = 160;  // event-log lines of one job (held until written)
inline constexpr double kDefaultMemoryLimitGib = 32;

struct MemoryEstimate {
  double gpus = 0;
  double nodes = 0;
  double jobs = 0;     // jobs the generators and the job list submit; traces are not counted
  double pods = 0;     // their pods (a gang's pods each cost memory: kBytesPerExtraPod)
  double samples = 0;  // time-series samples at `timeseries_interval` up to `until`, or without it
                       // up to the latest generator arrival or explicit job end expected
  double bytes = 0;
  std::string largest_pointer;  // the key that drives the largest part, for the error message
};

MemoryEstimate estimate_memory(const nlohmann::ordered_json& document);

// Throws InputError(origin, pointer) when the estimate exceeds the budget: the document's
// `memory_limit_gib`, else kDefaultMemoryLimitGib.
void check_memory_budget(const nlohmann::ordered_json& document, const std::string& origin);

}  // namespace sharesim
