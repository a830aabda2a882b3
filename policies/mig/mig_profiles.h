#pragma once
// MIG GPU-instance profiles per GPU model and the layouts operators name them by, from the
// NVIDIA MIG User Guide ("Supported MIG Profiles", "Getting Started with MIG"), nvidia-smi
// `mig -lgip` / `mig -lgipp` outputs, and NVIDIA mig-parted's config-default.yaml. Every
// table names its source in mig_profiles.cpp; docs/mig-profiles-draft.md lists them.
//
// A MIG-mode GPU has 7 compute slices and 8 memory slices. A GPU instance of profile "Ng.Mgb"
// takes N compute slices and a run of memory slices that starts at one of the profile's
// allowed placements (what `nvidia-smi mig -lgipp` prints as "{0,2,4}:2").
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

struct MigProfile {
  std::string_view name;             // "1g.10gb", "1g.10gb+me"
  int compute_slices = 0;            // the N of "Ng"
  int sm_count = 0;                  // SMs of one instance (`nvidia-smi mig -lgip`, SM column)
  int memory_slices = 0;             // out of 8; equals placement_size
  std::int64_t memory_mib = 0;       // `nvidia-smi mig -lgip` Memory column (GiB) x 1024
  int max_count = 0;                 // `nvidia-smi mig -lgip` Instances Total
  std::span<const int> start_slots;  // allowed first memory slices (`-lgipp` "{...}")
  int placement_size = 0;            // memory slices one placement covers (`-lgipp` ":N")
  bool media_extensions = false;     // a "+me" profile: holds the GPU's media engines, one at most
};

struct MigProfileCount {
  std::string_view profile;
  int count = 0;
};

// A layout by the name NVIDIA's tools give it (mig-parted / GPU operator `mig.config` label).
struct NamedLayout {
  std::string_view name;  // "all-1g.10gb", "all-balanced"
  std::span<const MigProfileCount> counts;
};

struct MigGpuProfiles {
  std::string_view gpu_id;                // catalog id, as in scenarios/hardware/gpus.json
  int sm_count_full_gpu_in_mig_mode = 0;  // SMs of the 7g instance
  int compute_slices = 7;                 // per GPU in MIG mode
  int memory_slices = 8;
  std::span<const MigProfile> profiles;  // in `nvidia-smi mig -lgip` order
  std::span<const NamedLayout> layouts;
  std::string_view source;

  const MigProfile* find(std::string_view name) const;          // nullptr when unknown
  const NamedLayout* find_layout(std::string_view name) const;  // nullptr when unknown
  // The instance that takes the whole GPU (7g, without media extensions).
  const MigProfile& full_instance() const;
  std::vector<std::string> profile_names() const;
  std::vector<std::string> layout_names() const;
};

// nullptr: sharesim has no MIG table for this model (MIG unsupported, or not tabulated).
const MigGpuProfiles* mig_profiles_for(std::string_view gpu_id);
// The catalog ids that have a MIG table, in table order.
std::vector<std::string> mig_gpu_ids();

}  // namespace sharesim
