// Fuzz harness: a sweep spec (`sharesim sweep SPEC.json`), read and expanded into its runs.
// The input is written as spec.json into a folder of its own beside a small scenario, s.json,
// which the seed specs name; expansion loads that scenario once per grid point with the
// grid's values set, so mutated paths and values reach the scenario loader too.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "apps/sweep_spec.h"
#include "sim/cluster/gpu_catalog.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

// Expanding loads one scenario per run; a spec with more runs than this is read but not
// expanded, so one input cannot take minutes (a large sweep is legitimate, not a finding).
constexpr std::size_t kMaxExpandedRuns = 64;

std::string spec_folder() {
  const char* dir = std::getenv("TMPDIR");
  const std::filesystem::path folder = std::filesystem::path(dir != nullptr ? dir : "/tmp") /
                                       ("sharesim-fuzz-sweep-" + std::to_string(getpid()));
  std::filesystem::create_directories(folder);
  std::filesystem::copy_file(SHARESIM_SOURCE_DIR "/tests/data/sweep/s.json", folder / "s.json",
                             std::filesystem::copy_options::overwrite_existing);
  return folder.string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sharesim;
  static const std::string folder = spec_folder();
  const std::string path = folder + "/spec.json";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) std::abort();  // the harness's own failure, not the input's
  }
  fuzz::refuse_or_accept([&] {
    const ScenarioSweepSpec spec = load_sweep_spec(path);
    std::size_t runs = spec.seeds.size() * std::max<std::size_t>(1, spec.variants.size());
    for (const SweepAxis& axis : spec.axes) {
      if (axis.values.empty() || runs > kMaxExpandedRuns) break;
      runs *= axis.values.size();
    }
    if (runs <= kMaxExpandedRuns) expand_sweep(spec, GpuCatalog::builtin());
  });
  return 0;
}
