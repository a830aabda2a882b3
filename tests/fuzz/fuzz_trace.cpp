// Fuzz harness: one trace importer (FUZZ_TRACE_FORMAT: native, openb, pai, philly, helios,
// gavel), the input read whole as `sharesim trace stats` reads it. Built once per format.
#include <nlohmann/json.hpp>

#include "policies/policy_registry.h"
#include "sim/cluster/gpu_catalog.h"
#include "tests/fuzz/fuzz_input.h"
#include "workloads/trace_tools.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sharesim;
  const std::string format = FUZZ_TRACE_FORMAT;
  nlohmann::json spec{{"format", format}, {"path", fuzz::input_file(data, size, ".trace")}};
  // Gavel durations need measured throughputs: the test table.
  if (format == "gavel") spec["throughputs"] = SHARESIM_SOURCE_DIR "/tests/data/traces/gavel_throughputs.json";
  fuzz::refuse_or_accept([&] {
    TraceFile trace(spec, GpuCatalog::builtin(), registered_per_device_resources());
    compute_trace_stats(trace);
  });
  return 0;
}
