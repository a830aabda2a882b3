// MIG profile tables (policies/mig/mig_profiles.h) and layout parsing (policies/mig/mig_layout.h).
#include "policies/mig/mig_layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "policies/mig/mig_profiles.h"
#include "sim/cluster/gpu_catalog.h"

namespace sharesim {
namespace {

const MigGpuProfiles& gpu(std::string_view id) {
  const MigGpuProfiles* profiles = mig_profiles_for(id);
  if (profiles == nullptr) throw std::runtime_error("no MIG table for " + std::string(id));
  return *profiles;
}

MigLayout parse_ok(std::string_view id, const std::vector<std::string>& names) {
  std::string problem;
  std::optional<MigLayout> layout = parse_mig_layout(gpu(id), names, problem);
  EXPECT_TRUE(layout.has_value()) << problem;
  return layout.value_or(MigLayout{});
}

std::string problem_of(std::string_view id, const std::vector<std::string>& names) {
  std::string problem;
  std::optional<MigLayout> layout = parse_mig_layout(gpu(id), names, problem);
  EXPECT_FALSE(layout.has_value()) << (layout ? format_mig_layout(*layout) : std::string());
  return problem;
}

std::map<std::string, int> counts_of(const MigLayout& layout) {
  std::map<std::string, int> counts;
  for (const MigInstance& instance : layout.instances) ++counts[std::string(instance.profile->name)];
  return counts;
}

TEST(MigProfiles, TablesCoverTheCatalogsMigModelsOnly) {
  EXPECT_EQ(mig_gpu_ids(),
            (std::vector<std::string>{"A100-40GB", "A100-80GB", "H100-80GB", "H100-PCIe", "H200-141GB"}));
  for (const std::string& id : mig_gpu_ids()) {
    const GpuModel* model = GpuCatalog::builtin().find(id);
    ASSERT_NE(model, nullptr) << id;
    EXPECT_TRUE(model->mig_supported) << id;
    const MigGpuProfiles& table = gpu(id);
    EXPECT_EQ(table.gpu_id, id);
    // The 7g instance has every SM MIG mode leaves usable, never more than the GPU has.
    EXPECT_LE(table.sm_count_full_gpu_in_mig_mode, model->sm_count) << id;
    const MigProfile* full = nullptr;
    for (const MigProfile& profile : table.profiles) {
      if (profile.compute_slices == table.compute_slices) full = &profile;
    }
    ASSERT_NE(full, nullptr) << id;
    EXPECT_EQ(full->sm_count, table.sm_count_full_gpu_in_mig_mode) << id;
    EXPECT_LE(full->memory_mib, model->memory_mib) << id;
    EXPECT_FALSE(table.source.empty());
  }
  EXPECT_EQ(mig_profiles_for("L4"), nullptr);
  EXPECT_EQ(mig_profiles_for("V100-32GB"), nullptr);
  EXPECT_EQ(mig_profiles_for("h100-80gb"), nullptr);  // ids are exact, as in the catalog
}

TEST(MigProfiles, EveryProfileAgreesWithItsNameAndPlacements) {
  for (const std::string& id : mig_gpu_ids()) {
    const MigGpuProfiles& table = gpu(id);
    for (const MigProfile& profile : table.profiles) {
      SCOPED_TRACE(id + " " + std::string(profile.name));
      // "<N>g.<M>gb": N is the compute slices.
      EXPECT_EQ(profile.name.substr(0, profile.name.find('g')), std::to_string(profile.compute_slices));
      EXPECT_EQ(profile.media_extensions, profile.name.ends_with("+me"));
      EXPECT_EQ(profile.memory_slices, profile.placement_size);
      EXPECT_GE(profile.compute_slices, 1);
      EXPECT_LE(profile.compute_slices, table.compute_slices);
      EXPECT_GT(profile.sm_count, 0);
      EXPECT_GT(profile.memory_mib, 0);
      ASSERT_FALSE(profile.start_slots.empty());
      for (int start : profile.start_slots) {
        EXPECT_GE(start, 0);
        EXPECT_LE(start + profile.placement_size, table.memory_slices);
        EXPECT_EQ(start % profile.placement_size, 0);  // placements are aligned to their size
      }
      // The instance limit is the number of disjoint placements; "+me" profiles allow one.
      EXPECT_EQ(profile.max_count, profile.media_extensions ? 1 : static_cast<int>(profile.start_slots.size()));
      // One slice's memory, times the slices, stays within the 8-slice instance's memory.
      EXPECT_LE(profile.memory_mib * (table.memory_slices / profile.memory_slices), table.profiles.back().memory_mib);
    }
  }
}

TEST(MigProfiles, FiguresFromTheNvidiaSmiListings) {
  // Spot checks of transcribed -lgip figures (GiB x 1024).
  EXPECT_EQ(gpu("A100-40GB").find("1g.5gb")->memory_mib, 4864);  // 4.75 GiB
  EXPECT_EQ(gpu("A100-40GB").find("7g.40gb")->sm_count, 98);
  EXPECT_EQ(gpu("H100-80GB").find("1g.10gb")->sm_count, 16);
  EXPECT_EQ(gpu("H100-80GB").find("1g.20gb")->sm_count, 26);
  EXPECT_EQ(gpu("H100-80GB").find("3g.40gb")->memory_mib, 40448);  // 39.50 GiB
  EXPECT_EQ(gpu("H100-PCIe").find("7g.80gb")->sm_count, 114);
  EXPECT_EQ(gpu("H200-141GB").find("7g.141gb")->memory_mib, 143360);  // 140.00 GiB
  EXPECT_EQ(gpu("A100-40GB").find("1g.10gb")->placement_size, 2);
  EXPECT_EQ(gpu("H100-80GB").find("1g.5gb"), nullptr);
}

TEST(MigLayout, AllOneGOnH100GivesSevenInstancesOnSlicesZeroToSix) {
  const MigLayout layout = parse_ok("H100-80GB", {"all-1g.10gb"});
  ASSERT_EQ(layout.instances.size(), 7U);
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(layout.instances[static_cast<std::size_t>(i)].start, i);
    EXPECT_EQ(layout.instances[static_cast<std::size_t>(i)].profile->name, "1g.10gb");
  }
  EXPECT_EQ(mig_layout_sm_count(layout), 7 * 16);
  EXPECT_EQ(mig_layout_compute_slices(layout), 7);
}

TEST(MigLayout, AllOneGTenGbOnA100FortyGbIsFourTwoSliceInstances) {
  const MigLayout layout = parse_ok("A100-40GB", {"all-1g.10gb"});
  EXPECT_EQ(format_mig_layout(layout), "1g.10gb@0, 1g.10gb@2, 1g.10gb@4, 1g.10gb@6");
}

TEST(MigLayout, AllBalancedHasTheMigPartedCounts) {
  const std::map<std::string, std::map<std::string, int>> expected{
      {"A100-40GB", {{"1g.5gb", 2}, {"2g.10gb", 1}, {"3g.20gb", 1}}},
      {"A100-80GB", {{"1g.10gb", 2}, {"2g.20gb", 1}, {"3g.40gb", 1}}},
      {"H100-80GB", {{"1g.10gb", 2}, {"2g.20gb", 1}, {"3g.40gb", 1}}},
      {"H100-PCIe", {{"1g.10gb", 2}, {"2g.20gb", 1}, {"3g.40gb", 1}}},
      {"H200-141GB", {{"1g.18gb", 2}, {"2g.35gb", 1}, {"3g.71gb", 1}}},
  };
  for (const auto& [id, counts] : expected) {
    const MigLayout layout = parse_ok(id, {"all-balanced"});
    EXPECT_EQ(counts_of(layout), counts) << id;
    EXPECT_EQ(mig_layout_compute_slices(layout), 7) << id;
  }
  EXPECT_EQ(format_mig_layout(parse_ok("H100-80GB", {"all-balanced"})), "2g.20gb@0, 1g.10gb@2, 1g.10gb@3, 3g.40gb@4");
}

TEST(MigLayout, EveryNamedLayoutIsValidAndWithinTheGpu) {
  for (const std::string& id : mig_gpu_ids()) {
    const MigGpuProfiles& table = gpu(id);
    ASSERT_FALSE(table.layouts.empty()) << id;
    for (const NamedLayout& named : table.layouts) {
      SCOPED_TRACE(id + " " + std::string(named.name));
      const MigLayout layout = parse_ok(id, {std::string(named.name)});
      int listed = 0;
      for (const MigProfileCount& count : named.counts) listed += count.count;
      EXPECT_EQ(static_cast<int>(layout.instances.size()), listed);
      EXPECT_LE(mig_layout_sm_count(layout), table.sm_count_full_gpu_in_mig_mode);
      EXPECT_LE(mig_layout_compute_slices(layout), table.compute_slices);
      EXPECT_LE(mig_layout_memory_mib(layout), table.profiles.back().memory_mib);
      // "all-<profile>" holds as many of that profile as the GPU can.
      if (named.counts.size() == 1) {
        std::string profile_part(named.counts[0].profile);
        if (profile_part.ends_with("+me")) profile_part.replace(profile_part.size() - 3, 3, ".me");
        EXPECT_EQ(named.name, "all-" + profile_part);
        const MigProfile* profile = table.find(named.counts[0].profile);
        ASSERT_NE(profile, nullptr);
        EXPECT_EQ(named.counts[0].count, profile->max_count);
      }
    }
  }
}

TEST(MigLayout, GeometriesFromTheMigUserGuideAreAccepted) {
  // "Creating GPU Instances" examples on an A100-SXM4-40GB: two 3g.20gb (placements 0:4, 4:4),
  // the 3-2-1-1 geometry and the 2-1-1-1-1-1 geometry with the placements -lgi printed.
  EXPECT_EQ(format_mig_layout(parse_ok("A100-40GB", {"3g.20gb", "3g.20gb"})), "3g.20gb@0, 3g.20gb@4");
  EXPECT_EQ(format_mig_layout(parse_ok("A100-40GB", {"3g.20gb@4", "1g.5gb@0", "2g.10gb@2", "1g.5gb@1"})),
            "1g.5gb@0, 1g.5gb@1, 2g.10gb@2, 3g.20gb@4");
  EXPECT_EQ(format_mig_layout(
                parse_ok("A100-40GB", {"2g.10gb@4", "1g.5gb@0", "1g.5gb@1", "1g.5gb@2", "1g.5gb@3", "1g.5gb@6"})),
            "1g.5gb@0, 1g.5gb@1, 1g.5gb@2, 1g.5gb@3, 2g.10gb@4, 1g.5gb@6");
  // (4 memory, 4 compute) beside (4 memory, 3 compute): "no longer" restricted since R510.
  EXPECT_EQ(format_mig_layout(parse_ok("A100-40GB", {"3g.20gb", "4g.20gb"})), "4g.20gb@0, 3g.20gb@4");
  EXPECT_EQ(format_mig_layout(parse_ok("A100-40GB", {"1g.5gb", "2g.10gb", "4g.20gb"})),
            "4g.20gb@0, 2g.10gb@4, 1g.5gb@6");
  // H100: 3g.40gb + 1g.20gb + 1g.10gb (profile IDs 9, 15, 19), and 3g.40gb@4 beside 4g.40gb@0.
  EXPECT_EQ(format_mig_layout(parse_ok("H100-80GB", {"3g.40gb", "1g.20gb", "1g.10gb"})),
            "3g.40gb@0, 1g.20gb@4, 1g.10gb@6");
  EXPECT_EQ(format_mig_layout(parse_ok("H100-80GB", {"3g.40gb@4", "4g.40gb@0"})), "4g.40gb@0, 3g.40gb@4");
  // 3g + 3g leaves one compute slice unused; still valid.
  EXPECT_EQ(mig_layout_compute_slices(parse_ok("H100-80GB", {"all-3g.40gb"})), 6);
}

// Every set of non-overlapping allowed placements within the slice totals and instance limits is
// accepted, pinned as enumerated and unpinned (found by the search), and stays within the GPU.
void enumerate(const MigGpuProfiles& table, int slice, std::vector<MigInstance>& chosen, int& checked) {
  if (slice == table.memory_slices) {
    if (chosen.empty()) return;
    int compute = 0;
    std::map<const MigProfile*, int> counts;
    for (const MigInstance& instance : chosen) {
      compute += instance.profile->compute_slices;
      if (++counts[instance.profile] > instance.profile->max_count) return;
    }
    if (compute > table.compute_slices) return;
    std::vector<std::string> pinned;
    std::vector<std::string> unpinned;
    for (const MigInstance& instance : chosen) {
      pinned.push_back(std::string(instance.profile->name) + "@" + std::to_string(instance.start));
      unpinned.emplace_back(instance.profile->name);
    }
    std::string problem;
    std::optional<MigLayout> exact = parse_mig_layout(table, pinned, problem);
    ASSERT_TRUE(exact.has_value()) << table.gpu_id << ": " << problem;
    std::optional<MigLayout> searched = parse_mig_layout(table, unpinned, problem);
    ASSERT_TRUE(searched.has_value()) << table.gpu_id << ": " << problem;
    EXPECT_EQ(counts_of(*searched), counts_of(*exact));
    EXPECT_LE(mig_layout_sm_count(*exact), table.sm_count_full_gpu_in_mig_mode);
    EXPECT_LE(mig_layout_memory_mib(*exact), table.profiles.back().memory_mib);
    ++checked;
    return;
  }
  enumerate(table, slice + 1, chosen, checked);  // slice left empty
  for (const MigProfile& profile : table.profiles) {
    bool allowed = false;
    for (int start : profile.start_slots) allowed = allowed || start == slice;
    if (!allowed || slice + profile.placement_size > table.memory_slices) continue;
    chosen.push_back(MigInstance{&profile, slice});
    enumerate(table, slice + profile.placement_size, chosen, checked);
    chosen.pop_back();
  }
}

TEST(MigLayout, EveryPlacementTheRulesAllowIsAcceptedAndFitsTheGpu) {
  for (const std::string& id : mig_gpu_ids()) {
    std::vector<MigInstance> chosen;
    int checked = 0;
    enumerate(gpu(id), 0, chosen, checked);
    EXPECT_GT(checked, 100) << id;
  }
}

TEST(MigLayout, OverlappingPinnedInstancesAreRejectedNamingBoth) {
  EXPECT_EQ(problem_of("H100-80GB", {"3g.40gb@0", "2g.20gb@2"}),
            "2g.20gb@2 (memory slices 2-3) overlaps 3g.40gb@0 (memory slices 0-3)");
  EXPECT_EQ(problem_of("H100-80GB", {"1g.10gb@5", "1g.10gb@5"}),
            "1g.10gb@5 (memory slice 5) overlaps 1g.10gb@5 (memory slice 5)");
}

TEST(MigLayout, StartsOutsideTheAllowedPlacementsAreRejected) {
  EXPECT_EQ(problem_of("H100-80GB", {"3g.40gb@1"}), "start 1 is not an allowed placement of 3g.40gb (allowed: 0, 4)");
  EXPECT_EQ(problem_of("H100-80GB", {"1g.10gb@7"}),
            "start 7 is not an allowed placement of 1g.10gb (allowed: 0, 1, 2, 3, 4, 5, 6)");
  EXPECT_EQ(problem_of("H100-80GB", {"2g.20gb@6"}),
            "start 6 is not an allowed placement of 2g.20gb (allowed: 0, 2, 4)");
  EXPECT_EQ(
      problem_of("H100-80GB", {"1g.10gb@x"}),
      "\"1g.10gb@x\": the start after \"@\" must be a memory slice index (allowed for 1g.10gb: 0, 1, 2, 3, 4, 5, 6)");
  EXPECT_NE(problem_of("H100-80GB", {"1g.10gb@"}).find("must be a memory slice index"), std::string::npos);
}

TEST(MigLayout, OverFullLayoutsAreRejectedWithTheReason) {
  EXPECT_EQ(problem_of("H100-80GB", {"4g.40gb", "3g.40gb", "1g.10gb"}),
            "7 compute slices are the most one H100-80GB has; this layout needs 8");
  EXPECT_EQ(problem_of("H100-80GB", {"4g.40gb", "2g.20gb", "2g.20gb", "1g.10gb"}),
            "7 compute slices are the most one H100-80GB has; this layout needs 9");
  EXPECT_EQ(problem_of("H100-80GB", {"7g.80gb", "7g.80gb"}),
            "at most 1 instance of 7g.80gb fits on one H100-80GB; this layout has 2");
  EXPECT_EQ(problem_of("A100-40GB", {"3g.20gb", "3g.20gb", "3g.20gb"}),
            "at most 2 instances of 3g.20gb fit on one A100-40GB; this layout has 3");
  EXPECT_EQ(problem_of("H100-80GB", {"1g.10gb+me", "1g.10gb+me"}),
            "at most 1 instance of 1g.10gb+me fits on one H100-80GB; this layout has 2");
  EXPECT_EQ(problem_of("H100-80GB", {"3g.40gb", "3g.40gb", "1g.10gb"}),
            "8 memory slices are the most one H100-80GB has; this layout needs 9");
}

TEST(MigLayout, PinsThatLeaveNoRoomAreRejected) {
  // 4g.40gb can only start at 0, which the pinned 1g.10gb@2 lies inside.
  EXPECT_EQ(problem_of("H100-80GB", {"1g.10gb@2", "4g.40gb"}),
            "no placement of these instances fits without overlapping memory slices: to place 4g.40gb (starts 0); "
            "pinned 1g.10gb@2 (memory slice 2)");
  EXPECT_EQ(problem_of("H100-80GB", {"3g.40gb@0", "3g.40gb@4", "1g.10gb"}).rfind("8 memory slices", 0), 0U);
}

TEST(MigLayout, UnknownNamesGetTheListAndADidYouMean) {
  EXPECT_EQ(problem_of("H100-80GB", {"1g.5gb"}),
            "unknown MIG profile \"1g.5gb\" on H100-80GB; profiles: \"1g.10gb\", \"1g.10gb+me\", \"1g.20gb\", "
            "\"2g.20gb\", \"3g.40gb\", \"4g.40gb\", \"7g.80gb\"; did you mean \"1g.10gb\"?");
  EXPECT_EQ(problem_of("H100-80GB", {"3g.40gb", "3g40gb@4"}),
            "unknown MIG profile \"3g40gb\" on H100-80GB; profiles: \"1g.10gb\", \"1g.10gb+me\", \"1g.20gb\", "
            "\"2g.20gb\", \"3g.40gb\", \"4g.40gb\", \"7g.80gb\"; did you mean \"3g.40gb\"?");
  EXPECT_EQ(problem_of("H100-80GB", {"all-1g.5gb"}),
            "unknown MIG layout \"all-1g.5gb\" on H100-80GB; layouts: \"all-1g.10gb\", \"all-1g.10gb.me\", "
            "\"all-1g.20gb\", \"all-2g.20gb\", \"all-3g.40gb\", \"all-4g.40gb\", \"all-7g.80gb\", \"all-balanced\"; "
            "did you mean \"all-1g.10gb\"?");
  const std::string no_suggestion = problem_of("H200-141GB", {"banana"});
  EXPECT_EQ(no_suggestion.rfind("unknown MIG profile \"banana\" on H200-141GB; profiles: \"1g.18gb\"", 0), 0U);
  EXPECT_EQ(no_suggestion.find("did you mean"), std::string::npos);
}

TEST(MigLayout, LayoutNamesStandAloneAndMigOffIsNotALayout) {
  EXPECT_NE(problem_of("H100-80GB", {"all-disabled"}).find("exclusive sharing policy"), std::string::npos);
  EXPECT_NE(problem_of("H100-80GB", {"all-enabled"}).find("without creating any instance"), std::string::npos);
  EXPECT_EQ(problem_of("H100-80GB", {"all-balanced", "1g.10gb"}),
            "layout name \"all-balanced\" must be the only entry of a MIG layout; list profile names to combine "
            "instances");
  EXPECT_EQ(problem_of("H100-80GB", {}),
            "a MIG layout needs at least one instance: name a layout such as \"all-balanced\" or list profile names");
}

TEST(MigLayout, SearchIsDeterministicAndSortedByStart) {
  const std::vector<std::string> names{"1g.10gb", "3g.40gb", "1g.10gb", "2g.20gb"};
  const MigLayout first = parse_ok("H100-80GB", names);
  const MigLayout second = parse_ok("H100-80GB", names);
  EXPECT_EQ(format_mig_layout(first), format_mig_layout(second));
  EXPECT_EQ(format_mig_layout(first), "2g.20gb@0, 1g.10gb@2, 1g.10gb@3, 3g.40gb@4");
  // A pin is kept; the others fit around it.
  EXPECT_EQ(format_mig_layout(parse_ok("H100-80GB", {"1g.10gb@6", "3g.40gb", "2g.20gb"})),
            "3g.40gb@0, 2g.20gb@4, 1g.10gb@6");
  // The formatted layout parses back to itself.
  const std::string text = format_mig_layout(parse_ok("H200-141GB", {"all-balanced"}));
  std::vector<std::string> entries;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = text.find(", ", begin);
    entries.push_back(text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    begin = end == std::string::npos ? text.size() : end + 2;
  }
  EXPECT_EQ(format_mig_layout(parse_ok("H200-141GB", entries)), text);
}

}  // namespace
}  // namespace sharesim

namespace sharesim {
namespace {

// A MIG table against the `nvidia-smi mig -lgip` / `-lgipp` listing read on real hardware
// (results/hardware/): names, instance counts, GiB (memory_mib / 1024, truncated as nvidia-smi
// prints it), SMs and placements; every profile of the table is listed once in each.
void expect_table_matches_listing(std::string_view gpu_id, const std::string& listing) {
  std::ifstream in(listing);
  ASSERT_TRUE(in) << listing << ": run from the project root";
  const MigGpuProfiles& table = gpu(gpu_id);
  std::map<int, std::string> name_of_id;
  std::regex profile_line(R"(MIG (\S+)\s+(\d+)\s+\d+/(\d+)\s+([0-9.]+)\s+\S+\s+(\d+))");
  std::regex placement_line(R"(Profile ID\s+(\d+) Placements?\s*: \{([0-9,]+)\}:(\d+))");
  std::string line;
  int profiles = 0, placements = 0;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, profile_line)) {
      const MigProfile* p = table.find(m[1].str());
      ASSERT_NE(p, nullptr) << m[1];
      name_of_id[std::stoi(m[2].str())] = m[1].str();
      EXPECT_EQ(p->max_count, std::stoi(m[3].str())) << m[1];
      // nvidia-smi truncates GiB to two decimals (19.625 shows as 19.62).
      EXPECT_EQ(std::floor(static_cast<double>(p->memory_mib) / 1024 * 100) / 100, std::stod(m[4].str())) << m[1];
      EXPECT_EQ(p->sm_count, std::stoi(m[5].str())) << m[1];
      ++profiles;
    } else if (std::regex_search(line, m, placement_line)) {
      const MigProfile* p = table.find(name_of_id.at(std::stoi(m[1].str())));
      std::vector<int> starts;
      std::stringstream list(m[2].str());
      for (std::string start; std::getline(list, start, ',');) starts.push_back(std::stoi(start));
      EXPECT_EQ(std::vector<int>(p->start_slots.begin(), p->start_slots.end()), starts) << p->name;
      EXPECT_EQ(p->placement_size, std::stoi(m[3].str())) << p->name;
      ++placements;
    }
  }
  EXPECT_EQ(profiles, static_cast<int>(table.profiles.size()));
  EXPECT_EQ(placements, static_cast<int>(table.profiles.size()));
}

TEST(MigProfiles, H100TableMatchesTheListingReadOnAnH100) {
  expect_table_matches_listing("H100-80GB", "results/hardware/H100-80GB-mig-lgip-20261123.txt");
}

TEST(MigProfiles, H200TableMatchesTheListingReadOnAnH200) {
  expect_table_matches_listing("H200-141GB", "results/hardware/H200-141GB-mig-lgip-20261123.txt");
}

}  // namespace
}  // namespace sharesim
