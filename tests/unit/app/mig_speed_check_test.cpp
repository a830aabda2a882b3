// `sharesim profiles mig-check` (apps/mig_speed_check.h, issue 4): the MIG policy's slice
// speeds against MISO's A100-40GB measurements. The synthetic tests check the model's
// arithmetic; the real-data test checks that every measured cell is compared, that the errors
// are numbers, and that docs/models.md shows the tables as computed now. No accuracy threshold:
// the tables report the errors, whatever they are.
#include "apps/mig_speed_check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/input/input_error.h"

namespace sharesim {
namespace {

const std::string kSharedData = SHARESIM_SHARED_DATA_DIR;
const std::string kSourceDir = SHARESIM_SOURCE_DIR;
const char* const kHeading = "### MIG slice speeds against MISO's measurements";

const GpuModel& a100_40gb() {
  const GpuModel* gpu = GpuCatalog::builtin().find("A100-40GB");
  EXPECT_NE(gpu, nullptr);
  return *gpu;
}

const MigGpuProfiles& a100_40gb_mig() { return *mig_profiles_for("A100-40GB"); }

TEST(MigSpeedCheck, SmBoundDemandRunsInProportionToTheInstanceSms) {
  // sm 1.0 is SM-bound on every instance (7g holds 98 of the 108 SMs); bw 0.05 never binds.
  const FitDemand demand{1.0, 0.05};
  const std::map<std::string, double> sms{{"1g.5gb", 14}, {"2g.10gb", 28}, {"3g.20gb", 42}, {"4g.20gb", 56}};
  for (const auto& [slice, count] : sms) {
    EXPECT_NEAR(mig_model_speed(demand, a100_40gb(), a100_40gb_mig(), slice), count / 98.0, 1e-12) << slice;
  }
  EXPECT_NEAR(mig_model_speed(demand, a100_40gb(), a100_40gb_mig(), "7g.40gb"), 1.0, 1e-12);
}

TEST(MigSpeedCheck, BandwidthBoundDemandRunsInProportionToTheMemorySlices) {
  // bw 1.0 binds everywhere: 1g.5gb has 1 of 8 memory slices, 3g.20gb and 4g.20gb 4.
  const FitDemand demand{0.1, 1.0};
  EXPECT_NEAR(mig_model_speed(demand, a100_40gb(), a100_40gb_mig(), "1g.5gb"), 1.0 / 8, 1e-12);
  EXPECT_NEAR(mig_model_speed(demand, a100_40gb(), a100_40gb_mig(), "2g.10gb"), 2.0 / 8, 1e-12);
  EXPECT_NEAR(mig_model_speed(demand, a100_40gb(), a100_40gb_mig(), "3g.20gb"), 4.0 / 8, 1e-12);
  EXPECT_NEAR(mig_model_speed(demand, a100_40gb(), a100_40gb_mig(), "4g.20gb"), 4.0 / 8, 1e-12);
}

WorkloadProfile made_up(const std::string& name, double sm, double bw) {
  WorkloadProfile p;
  p.name = name;
  p.sm = sm;
  p.bw = bw;
  return p;
}

TEST(MigSpeedCheck, ComparesEveryMeasuredSliceAndSummarisesTheErrors) {
  // Measured exactly as an SM-bound task runs (speeds 4/7, 2/7, 1/7), 3g.20gb out of memory.
  WorkloadProfile measured = made_up("made-up-train-b1", 1.0, 0.5);
  measured.mig_latency_s = {{"7g.40gb", 1.0}, {"4g.20gb", 7.0 / 4}, {"2g.10gb", 7.0 / 2}, {"1g.5gb", 7.0}};
  measured.mig_out_of_memory = {"3g.20gb"};
  // In the library: SM-bound (exact), and one that is 10% too slow on 1g.5gb relative to 7g.
  const ProfileLibrary library({made_up("made-up-train-b1", 1.0, 0.05)});
  const MigSpeedCheck check = check_mig_speeds({measured}, library, a100_40gb(), a100_40gb_mig(), "data.csv");
  ASSERT_EQ(check.comparisons.size(), 3u);
  EXPECT_EQ(check.comparisons[0].slice, "4g.20gb");
  EXPECT_EQ(check.comparisons[2].slice, "1g.5gb");
  for (const MigSpeedComparison& c : check.comparisons) {
    EXPECT_NEAR(c.in_sample, c.measured, 1e-12) << c.slice;
    ASSERT_TRUE(c.out_of_sample.has_value()) << c.slice;
    EXPECT_TRUE(std::isfinite(*c.out_of_sample)) << c.slice;
  }
  ASSERT_EQ(check.in_sample.size(), 5u);
  EXPECT_EQ(check.in_sample[0].slice, "1g.5gb");
  EXPECT_EQ(check.in_sample[0].count, 1);
  EXPECT_EQ(check.in_sample[2].slice, "3g.20gb");
  EXPECT_EQ(check.in_sample[2].count, 0);
  EXPECT_EQ(check.in_sample[4].slice, "all");
  EXPECT_EQ(check.in_sample[4].count, 3);
  EXPECT_NEAR(check.in_sample[4].rms, 0.0, 1e-12);
  EXPECT_EQ(check.out_of_sample[4].count, 3);

  // Measured 1g.5gb 10% faster than the model: relative error -1/11 there.
  measured.mig_latency_s["1g.5gb"] = 7.0 / 1.1;
  const MigSpeedCheck slower = check_mig_speeds({measured}, library, a100_40gb(), a100_40gb_mig(), "data.csv");
  EXPECT_NEAR(slower.in_sample[0].bias, -1.0 / 11, 1e-12);
  EXPECT_NEAR(slower.in_sample[0].worst, 1.0 / 11, 1e-12);
  EXPECT_EQ(slower.in_sample[0].worst_profile, "made-up-train-b1");
  EXPECT_NEAR(slower.in_sample[4].bias, -1.0 / 33, 1e-12);
  EXPECT_NEAR(slower.in_sample[4].rms, std::sqrt(1.0 / 121 / 3), 1e-12);
  const std::string table = mig_error_table_markdown(slower.in_sample);
  EXPECT_NE(table.find("| 1g.5gb | 1 | -0.091 | 0.091 | 0.091 | made-up-train-b1 |\n"), std::string::npos) << table;
  EXPECT_NE(table.find("| 3g.20gb | 0 | +0.000 | 0.000 | 0.000 | - |\n"), std::string::npos) << table;
}

TEST(MigSpeedCheck, AMeasuredProfileMissingFromTheLibraryIsAnError) {
  WorkloadProfile measured = made_up("made-up-train-b2", 1.0, 0.5);
  measured.mig_latency_s = {{"7g.40gb", 1.0}, {"4g.20gb", 2.0}};
  const ProfileLibrary library({made_up("made-up-train-b1", 1.0, 0.05)});
  try {
    check_mig_speeds({measured}, library, a100_40gb(), a100_40gb_mig(), "data.csv");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "data.csv: MISO's row for workload profile \"made-up-train-b2\" has no built-in profile of that name "
              "to compare (sharesim profiles list); did you mean \"made-up-train-b1\"?");
  }
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  for (const char c : line) {
    if (c == ',') {
      fields.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields.push_back(field);
  return fields;
}

// The section under `heading` (up to the next heading of its level or higher); empty if none.
std::string section_of(const std::string& file, const std::string& heading) {
  std::ifstream in(file);
  std::string line, out;
  bool inside = false;
  while (std::getline(in, line)) {
    if (inside) {
      const std::size_t hashes = line.find_first_not_of('#');
      if (hashes >= 1 && hashes <= 3 && hashes != std::string::npos && line[hashes] == ' ') break;
      out += line + "\n";
    } else if (line == heading) {
      inside = true;
    }
  }
  return out;
}

TEST(MigSpeedCheckRealData, EveryMeasuredSliceIsComparedAndTheDocsShowTheTables) {
  const std::string csv = kSharedData + "/miso/mig_mean_iter_latency_s.csv";
  if (!std::filesystem::exists(csv)) GTEST_SKIP() << kSharedData << "/miso absent: no MISO measurements to compare";

  // Count the measured cells independently of the importer: non-blank, not 7g.40gb.
  std::ifstream in(csv);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const std::vector<std::string> header = split_csv_line(line);
  std::map<std::string, std::size_t> column;
  for (const char* slice : {"4g.20gb", "3g.20gb", "2g.10gb", "1g.5gb"}) {
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (header[i] == slice) column[slice] = i;
    }
    ASSERT_EQ(column.count(slice), 1u) << slice;
  }
  std::map<std::string, std::int64_t> cells;
  std::int64_t total = 0, predictable = 0;  // predictable: another slice of the row measured too
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> fields = split_csv_line(line);
    std::int64_t in_row = 0;
    for (const auto& [slice, index] : column) {
      if (index < fields.size() && !fields[index].empty()) {
        ++cells[slice];
        ++in_row;
      }
    }
    total += in_row;
    if (in_row >= 2) predictable += in_row;
  }

  const MigSpeedCheck check = check_mig_speeds(kSharedData + "/miso");
  EXPECT_EQ(static_cast<std::int64_t>(check.comparisons.size()), total);
  ASSERT_EQ(check.in_sample.size(), 5u);
  ASSERT_EQ(check.out_of_sample.size(), 5u);
  EXPECT_EQ(check.in_sample.back().count, total);
  EXPECT_EQ(check.out_of_sample.back().count, predictable);
  for (std::size_t i = 0; i + 1 < check.in_sample.size(); ++i) {
    EXPECT_EQ(check.in_sample[i].count, cells[check.in_sample[i].slice]) << check.in_sample[i].slice;
  }
  for (const MigSpeedComparison& c : check.comparisons) {
    EXPECT_TRUE(std::isfinite(c.measured) && c.measured > 0) << c.profile << " " << c.slice;
    EXPECT_TRUE(std::isfinite((c.in_sample - c.measured) / c.measured)) << c.profile << " " << c.slice;
    ASSERT_TRUE(c.out_of_sample.has_value()) << c.profile << " " << c.slice;
    EXPECT_TRUE(std::isfinite((*c.out_of_sample - c.measured) / c.measured)) << c.profile << " " << c.slice;
  }
  for (const std::vector<MigErrorRow>* rows : {&check.in_sample, &check.out_of_sample}) {
    for (const MigErrorRow& r : *rows) {
      EXPECT_TRUE(std::isfinite(r.bias) && std::isfinite(r.rms) && std::isfinite(r.worst)) << r.slice;
    }
  }

  // The leave-one-slice-out refit is the built-in fit minus one slice: with none left out it
  // gives the built-in demands.
  for (const WorkloadProfile& row : read_miso_profiles(kSharedData + "/miso")) {
    const WorkloadProfile* builtin = ProfileLibrary::builtin().find(row.name);
    ASSERT_NE(builtin, nullptr) << row.name;
    const FitDemand fitted = fit_slices(slice_observations(row));
    EXPECT_NEAR(fitted.sm, builtin->sm, 0.5e-4 + 1e-12) << row.name;
    EXPECT_NEAR(fitted.bw, builtin->bw, 0.5e-4 + 1e-12) << row.name;
  }

  // docs/models.md shows the tables as computed now, in this order.
  std::string doc = kSourceDir + "/docs/models.md";
  std::string section = section_of(doc, kHeading);
  ASSERT_FALSE(section.empty()) << "no section \"" << kHeading << "\" in " << doc;
  const std::string in_sample = mig_error_table_markdown(check.in_sample);
  const std::string out_of_sample = mig_error_table_markdown(check.out_of_sample);
  const std::size_t first = section.find(in_sample);
  EXPECT_NE(first, std::string::npos) << doc << " lacks the in-sample table as computed now "
                                      << "(sharesim profiles mig-check --miso ../shared/data/miso):\n"
                                      << in_sample;
  const std::size_t second =
      first == std::string::npos ? section.find(out_of_sample) : section.find(out_of_sample, first + in_sample.size());
  EXPECT_NE(second, std::string::npos) << doc << " lacks the leave-one-slice-out table as computed now, after the "
                                       << "in-sample one (sharesim profiles mig-check --miso ../shared/data/miso):\n"
                                       << out_of_sample;
}

}  // namespace
}  // namespace sharesim

namespace sharesim {
namespace {

// The profile fit (workloads/, which may not include policies/) keeps its own copy of the
// A100-40GB slices MISO measured: it must be the MIG policy's table.
TEST(MigSpeedCheck, TheFitsSliceTableIsTheMigPolicysTable) {
  const MigGpuProfiles* mig = mig_profiles_for(kMisoGpu);
  ASSERT_NE(mig, nullptr);
  EXPECT_EQ(GpuCatalog::builtin().find(kMisoGpu)->sm_count, kMisoGpuSmCount);
  for (const MigSlice& slice : kA100MigSlices) {
    const MigProfile* profile = mig->find(slice.name);
    ASSERT_NE(profile, nullptr) << slice.name;
    EXPECT_EQ(profile->sm_count, slice.sm_count) << slice.name;
    EXPECT_EQ(profile->memory_slices, slice.memory_eighths) << slice.name;
  }
}

}  // namespace
}  // namespace sharesim
