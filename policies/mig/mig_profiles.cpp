#include "policies/mig/mig_profiles.h"

#include <array>
#include <stdexcept>

namespace sharesim {
namespace {

// Allowed placements, as `nvidia-smi mig -lgipp` prints them ("{starts}:size"). The MIG User
// Guide, "Getting Started with MIG" > "List GPU Instance Profiles" (v580,
// https://docs.nvidia.com/datacenter/tesla/mig-user-guide/getting-started-with-mig.html),
// prints for an A100-SXM4-40GB:
//   Profile ID 19 (1g) and 20 (1g+me): {0,1,2,3,4,5,6}:1   Profile ID 15 (1g, 2 slices): {0,2,4,6}:2
//   Profile ID 14 (2g): {0,2,4}:2   Profile ID 9 (3g): {0,4}:4   Profile ID 5 (4g): {0}:4
//   Profile ID 0 (7g): {0}:8
// and the same lines are printed on H100 80GB HBM3 (SXM5) and on H100 NVL (NVIDIA technical
// blog on MIG with H100 NVL; public nvidia-smi notes found by code search), and were read on the
// H100 80GB HBM3 and the H200 lent to this project (results/hardware/). A 1g instance can
// never start at memory slice 7: the last slice is only reachable as part of a larger instance.
constexpr std::array<int, 7> kStarts1g{0, 1, 2, 3, 4, 5, 6};
constexpr std::array<int, 4> kStarts1gTwoSlices{0, 2, 4, 6};
constexpr std::array<int, 3> kStarts2g{0, 2, 4};
constexpr std::array<int, 2> kStarts3g{0, 4};
constexpr std::array<int, 1> kStarts4g{0};
constexpr std::array<int, 1> kStarts7g{0};

// memory_mib = the `-lgip` GiB figure x 1024. nvidia-smi prints two decimals and truncates, so
// "19.62" is 19.625 GiB = 20096 MiB: the MIG User Guide's own nvidia-smi output shows a
// 3g.20gb (19.62 in -lgip) as "20096MiB".

// ---- A100-40GB (A100-SXM4-40GB) ----
// Profiles, counts, compute and memory fractions: MIG User Guide, "Supported MIG Profiles" >
// "A100 MIG Profiles", Table "GPU Instance Profiles on A100"
// (https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html).
// SMs and GiB: `nvidia-smi mig -lgip` on A100-SXM4-40GB as printed in the MIG User Guide,
// "Getting Started with MIG" (1g.5gb 4.75, 2g.10gb 9.75, 3g.20gb 19.62, 4g.20gb 19.62,
// 7g.40gb 39.50 GiB; SMs 14/28/42/56/98). 1g.10gb (profile ID 15, newer drivers): 9.75 GiB,
// 14 SMs, 4 instances, from an A100-40GB -lgip that lists it beside the same 1g.5gb/2g.10gb
// figures (public code search). The guide's table gives 1g.10gb "1/8" of memory; its size is
// 2 slices by -lgipp (":2") and by its GiB figure, which is what is tabulated here.
// Later drivers print slightly smaller sizes (2g.10gb 9.62, 3g.20gb 19.50, 7g.40gb 39.25).
constexpr std::array<MigProfile, 7> kA100_40gb{{
    // name, compute slices, SMs, memory slices, MiB, max count, starts, placement size, +me
    {"1g.5gb", 1, 14, 1, 4864, 7, kStarts1g, 1, false},
    {"1g.5gb+me", 1, 14, 1, 4864, 1, kStarts1g, 1, true},
    {"1g.10gb", 1, 14, 2, 9984, 4, kStarts1gTwoSlices, 2, false},
    {"2g.10gb", 2, 28, 2, 9984, 3, kStarts2g, 2, false},
    {"3g.20gb", 3, 42, 4, 20096, 2, kStarts3g, 4, false},
    {"4g.20gb", 4, 56, 4, 20096, 1, kStarts4g, 4, false},
    {"7g.40gb", 7, 98, 8, 40448, 1, kStarts7g, 8, false},
}};

// ---- A100-80GB (A100-SXM4-80GB) ----
// Profile names: MIG User Guide, "A100 MIG Profiles" (for A100-SXM4-80GB: 1g.10gb, 1g.10gb+me,
// 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb), same fractions and counts as the 40GB table.
// SMs and GiB: `nvidia-smi mig -lgip` on an A100 80GB, driver 515.86.01, in a public write-up
// found by code search (1g.10gb 9.50, 2g.20gb 19.50, 3g.40gb 39.25, 4g.40gb 39.25, 7g.80gb
// 79.00 GiB; SMs 14/28/42/56/98); the same write-up's nvidia-smi shows a 3g.40gb as 40192MiB,
// and github.com/XuehaiPan/nvitop/pull/8 quotes 2g.20gb devices of 19968MiB. 1g.20gb (newer
// drivers): 19.50 GiB, 14 SMs, 4 instances, from an A100 80GB -lgip that lists it (code search).
// Placements: no A100 80GB -lgipp was found; ASSUMED equal to the A100 40GB's (same GA100, same
// slice fractions and instance counts in the guide's table).
constexpr std::array<MigProfile, 7> kA100_80gb{{
    {"1g.10gb", 1, 14, 1, 9728, 7, kStarts1g, 1, false},
    {"1g.10gb+me", 1, 14, 1, 9728, 1, kStarts1g, 1, true},
    {"1g.20gb", 1, 14, 2, 19968, 4, kStarts1gTwoSlices, 2, false},
    {"2g.20gb", 2, 28, 2, 19968, 3, kStarts2g, 2, false},
    {"3g.40gb", 3, 42, 4, 40192, 2, kStarts3g, 4, false},
    {"4g.40gb", 4, 56, 4, 40192, 1, kStarts4g, 4, false},
    {"7g.80gb", 7, 98, 8, 80896, 1, kStarts7g, 8, false},
}};

// ---- H100-80GB (H100 SXM5 80GB HBM3) ----
// Profiles, counts, fractions: MIG User Guide, "H100 MIG Profiles", Table "GPU Instance Profiles
// on H100" (1g.20gb takes 1/4 of memory, 1/7 of SMs).
// SMs, GiB and placements: `nvidia-smi mig -lgip` and `-lgipp` on "NVIDIA H100 80GB HBM3", quoted
// identically in two public nvidia-smi notes found by code search (1g.10gb 9.75, 1g.20gb 19.62,
// 2g.20gb 19.62, 3g.40gb 39.50, 4g.40gb 39.50, 7g.80gb 79.25 GiB; SMs 16/26/32/60/64/132), and
// MEASURED the same on an H100 80GB HBM3, driver 580.159.04, 2026-11-23:
// results/hardware/H100-80GB-mig-lgip-20261123.txt.
constexpr std::array<MigProfile, 7> kH100_80gb{{
    {"1g.10gb", 1, 16, 1, 9984, 7, kStarts1g, 1, false},
    {"1g.10gb+me", 1, 16, 1, 9984, 1, kStarts1g, 1, true},
    {"1g.20gb", 1, 26, 2, 20096, 4, kStarts1gTwoSlices, 2, false},
    {"2g.20gb", 2, 32, 2, 20096, 3, kStarts2g, 2, false},
    {"3g.40gb", 3, 60, 4, 40448, 2, kStarts3g, 4, false},
    {"4g.40gb", 4, 64, 4, 40448, 1, kStarts4g, 4, false},
    {"7g.80gb", 7, 132, 8, 81152, 1, kStarts7g, 8, false},
}};

// ---- H100-PCIe (H100 PCIe 80GB, 114 SMs) ----
// Profile names and counts: MIG User Guide, "H100 MIG Profiles" (the H100 table covers PCIe and
// SXM5 80GB). SMs and GiB: `nvidia-smi mig -lgip` on "NVIDIA H100 PCIe" (81559MiB, driver
// 570.169) in a public write-up found by code search (same GiB as SXM5; SMs 14/14/30/46/62/114;
// its nvidia-smi shows 1g.10gb devices of 9984MiB). The SM split is uneven (3g 46, 4g 62) and is
// transcribed as printed. Placements: no H100 PCIe -lgipp was found; ASSUMED equal to the H100
// SXM5's (same GH100 die, same profile table in the guide).
constexpr std::array<MigProfile, 7> kH100_pcie{{
    {"1g.10gb", 1, 14, 1, 9984, 7, kStarts1g, 1, false},
    {"1g.10gb+me", 1, 14, 1, 9984, 1, kStarts1g, 1, true},
    {"1g.20gb", 1, 14, 2, 20096, 4, kStarts1gTwoSlices, 2, false},
    {"2g.20gb", 2, 30, 2, 20096, 3, kStarts2g, 2, false},
    {"3g.40gb", 3, 46, 4, 40448, 2, kStarts3g, 4, false},
    {"4g.40gb", 4, 62, 4, 40448, 1, kStarts4g, 4, false},
    {"7g.80gb", 7, 114, 8, 81152, 1, kStarts7g, 8, false},
}};

// ---- H200-141GB (H200 SXM5 141GB) ----
// Profiles, counts, fractions: MIG User Guide, "H200 MIG Profiles", Table "GPU Instance Profiles
// on H200". SMs, GiB and placements: MEASURED with `nvidia-smi mig -lgip` and `-lgipp` on an
// NVIDIA H200 (143771 MiB), driver 580.159.04, 2026-11-23:
// results/hardware/H200-141GB-mig-lgip-20261123.txt (1g.18gb 16.00, 1g.35gb 32.50, 2g.35gb 32.50,
// 3g.71gb 69.75, 4g.71gb 69.75, 7g.141gb 140.00 GiB; SMs 16/26/32/60/64/132; placements as the
// H100's). The listing quoted in github.com/NVIDIA/mig-parted/issues/120 ("Add support for the
// NVIDIA H200 GPU"), which this table followed before, has the same SMs and 1g.18gb but 0.25 GiB
// less for the others (32.25, 69.50, 139.75); sizes change by a fraction of a GiB between driver
// versions (see A100-40GB), and the driver was not checked.
constexpr std::array<MigProfile, 7> kH200_141gb{{
    {"1g.18gb", 1, 16, 1, 16384, 7, kStarts1g, 1, false},
    {"1g.18gb+me", 1, 16, 1, 16384, 1, kStarts1g, 1, true},
    {"1g.35gb", 1, 26, 2, 33280, 4, kStarts1gTwoSlices, 2, false},
    {"2g.35gb", 2, 32, 2, 33280, 3, kStarts2g, 2, false},
    {"3g.71gb", 3, 60, 4, 71424, 2, kStarts3g, 4, false},
    {"4g.71gb", 4, 64, 4, 71424, 1, kStarts4g, 4, false},
    {"7g.141gb", 7, 132, 8, 143360, 1, kStarts7g, 8, false},
}};

// Named layouts: NVIDIA mig-parted, deployments/systemd/config-default.yaml (commit 1400787, the
// default config of the GPU operator's MIG manager; github.com/NVIDIA/mig-parted). Each
// "all-<profile>" entry lists the instance count that file gives for that model ("all-1g.10gb" is
// 7 on H100/A100 80GB and 4 on A100 40GB, where 1g.10gb spans two memory slices);
// "all-<profile>.me" is the one "+me" instance; "all-balanced" is the per-device-filter mix.
// "all-disabled" (MIG off) and "all-enabled" (MIG on, no instances) are left out on purpose.
template <std::size_t N>
using Counts = std::array<MigProfileCount, N>;

constexpr Counts<1> kA40_1g5{{{"1g.5gb", 7}}};
constexpr Counts<1> kA40_1g5me{{{"1g.5gb+me", 1}}};
constexpr Counts<1> kA40_1g10{{{"1g.10gb", 4}}};
constexpr Counts<1> kA40_2g10{{{"2g.10gb", 3}}};
constexpr Counts<1> kA40_3g20{{{"3g.20gb", 2}}};
constexpr Counts<1> kA40_4g20{{{"4g.20gb", 1}}};
constexpr Counts<1> kA40_7g40{{{"7g.40gb", 1}}};
constexpr Counts<3> kA40_balanced{{{"1g.5gb", 2}, {"2g.10gb", 1}, {"3g.20gb", 1}}};
constexpr std::array<NamedLayout, 8> kA100_40gbLayouts{{
    {"all-1g.5gb", kA40_1g5},
    {"all-1g.5gb.me", kA40_1g5me},
    {"all-1g.10gb", kA40_1g10},
    {"all-2g.10gb", kA40_2g10},
    {"all-3g.20gb", kA40_3g20},
    {"all-4g.20gb", kA40_4g20},
    {"all-7g.40gb", kA40_7g40},
    {"all-balanced", kA40_balanced},
}};

// "H100-80GB, H800-80GB, A100-80GB, A800-80GB" share one set of entries in config-default.yaml
// (its device filter for them includes 0x2331, the H100 PCIe).
constexpr Counts<1> k80_1g10{{{"1g.10gb", 7}}};
constexpr Counts<1> k80_1g10me{{{"1g.10gb+me", 1}}};
constexpr Counts<1> k80_1g20{{{"1g.20gb", 4}}};
constexpr Counts<1> k80_2g20{{{"2g.20gb", 3}}};
constexpr Counts<1> k80_3g40{{{"3g.40gb", 2}}};
constexpr Counts<1> k80_4g40{{{"4g.40gb", 1}}};
constexpr Counts<1> k80_7g80{{{"7g.80gb", 1}}};
constexpr Counts<3> k80_balanced{{{"1g.10gb", 2}, {"2g.20gb", 1}, {"3g.40gb", 1}}};
constexpr std::array<NamedLayout, 8> k80gbLayouts{{
    {"all-1g.10gb", k80_1g10},
    {"all-1g.10gb.me", k80_1g10me},
    {"all-1g.20gb", k80_1g20},
    {"all-2g.20gb", k80_2g20},
    {"all-3g.40gb", k80_3g40},
    {"all-4g.40gb", k80_4g40},
    {"all-7g.80gb", k80_7g80},
    {"all-balanced", k80_balanced},
}};

constexpr Counts<1> kH200_1g18{{{"1g.18gb", 7}}};
constexpr Counts<1> kH200_1g18me{{{"1g.18gb+me", 1}}};
constexpr Counts<1> kH200_1g35{{{"1g.35gb", 4}}};
constexpr Counts<1> kH200_2g35{{{"2g.35gb", 3}}};
constexpr Counts<1> kH200_3g71{{{"3g.71gb", 2}}};
constexpr Counts<1> kH200_4g71{{{"4g.71gb", 1}}};
constexpr Counts<1> kH200_7g141{{{"7g.141gb", 1}}};
constexpr Counts<3> kH200_balanced{{{"1g.18gb", 2}, {"2g.35gb", 1}, {"3g.71gb", 1}}};
constexpr std::array<NamedLayout, 8> kH200Layouts{{
    {"all-1g.18gb", kH200_1g18},
    {"all-1g.18gb.me", kH200_1g18me},
    {"all-1g.35gb", kH200_1g35},
    {"all-2g.35gb", kH200_2g35},
    {"all-3g.71gb", kH200_3g71},
    {"all-4g.71gb", kH200_4g71},
    {"all-7g.141gb", kH200_7g141},
    {"all-balanced", kH200_balanced},
}};

const std::array<MigGpuProfiles, 5>& tables() {
  static const std::array<MigGpuProfiles, 5> all{{
      {"A100-40GB", 98, 7, 8, kA100_40gb, kA100_40gbLayouts,
       "profiles: MIG User Guide, A100 table; SMs/GiB: the guide's nvidia-smi mig -lgip example "
       "(A100-SXM4-40GB); placements: the guide's nvidia-smi mig -lgipp; layouts: mig-parted "
       "config-default.yaml"},
      {"A100-80GB", 98, 7, 8, kA100_80gb, k80gbLayouts,
       "profiles: MIG User Guide, A100 table (80GB names); SMs/GiB: nvidia-smi mig -lgip on A100 "
       "80GB, driver 515.86.01 (public write-up); placements ASSUMED as A100 40GB; layouts: "
       "mig-parted config-default.yaml"},
      {"H100-80GB", 132, 7, 8, kH100_80gb, k80gbLayouts,
       "profiles: MIG User Guide, H100 table; SMs/GiB/placements: nvidia-smi mig -lgip and -lgipp "
       "on H100 80GB HBM3 (public notes); layouts: mig-parted config-default.yaml"},
      {"H100-PCIe", 114, 7, 8, kH100_pcie, k80gbLayouts,
       "profiles: MIG User Guide, H100 table; SMs/GiB: nvidia-smi mig -lgip on H100 PCIe, driver "
       "570.169 (public write-up); placements ASSUMED as H100 SXM5; layouts: mig-parted "
       "config-default.yaml"},
      {"H200-141GB", 132, 7, 8, kH200_141gb, kH200Layouts,
       "profiles: MIG User Guide, H200 table; SMs/GiB: nvidia-smi mig -lgip in "
       "github.com/NVIDIA/mig-parted/issues/120; placements ASSUMED as H100; layouts: mig-parted "
       "config-default.yaml"},
  }};
  return all;
}

}  // namespace

const MigProfile& MigGpuProfiles::full_instance() const {
  for (const MigProfile& p : profiles) {
    if (p.compute_slices == compute_slices && p.memory_slices == memory_slices && !p.media_extensions) return p;
  }
  throw std::logic_error("MIG table of " + std::string(gpu_id) + " has no instance of the whole GPU");
}

const MigProfile* MigGpuProfiles::find(std::string_view name) const {
  for (const MigProfile& profile : profiles) {
    if (profile.name == name) return &profile;
  }
  return nullptr;
}

const NamedLayout* MigGpuProfiles::find_layout(std::string_view name) const {
  for (const NamedLayout& layout : layouts) {
    if (layout.name == name) return &layout;
  }
  return nullptr;
}

std::vector<std::string> MigGpuProfiles::profile_names() const {
  std::vector<std::string> names;
  for (const MigProfile& profile : profiles) names.emplace_back(profile.name);
  return names;
}

std::vector<std::string> MigGpuProfiles::layout_names() const {
  std::vector<std::string> names;
  for (const NamedLayout& layout : layouts) names.emplace_back(layout.name);
  return names;
}

const MigGpuProfiles* mig_profiles_for(std::string_view gpu_id) {
  for (const MigGpuProfiles& gpu : tables()) {
    if (gpu.gpu_id == gpu_id) return &gpu;
  }
  return nullptr;
}

std::vector<std::string> mig_gpu_ids() {
  std::vector<std::string> ids;
  for (const MigGpuProfiles& gpu : tables()) ids.emplace_back(gpu.gpu_id);
  return ids;
}

}  // namespace sharesim
