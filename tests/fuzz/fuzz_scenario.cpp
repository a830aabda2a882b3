// Fuzz harness: the scenario loader and validator (syntax, schema, semantic checks, memory
// budget) on arbitrary bytes.
#include "sim/cluster/gpu_catalog.h"
#include "sim/scenario/scenario.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sharesim;
  fuzz::refuse_or_accept([&] { load_scenario_text(fuzz::input_text(data, size), "fuzz.json", GpuCatalog::builtin()); });
  return 0;
}
