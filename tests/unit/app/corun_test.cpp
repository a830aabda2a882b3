// sharesim corun (apps/corun.h): co-run predictions through the policies' own code.
#include "apps/corun.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "policies/calibration/calibration_profile.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

std::string write_csv(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / ("sharesim_corun_" + name + ".csv")).string();
  std::ofstream(path) << text;
  return path;
}

// Rows of the output as field lists (no quoting in these tests).
std::vector<std::vector<std::string>> rows_of(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(csv);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream cells(line);
    while (std::getline(cells, field, ',')) fields.push_back(field);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    rows.push_back(fields);
  }
  return rows;
}

std::string column(const std::vector<std::vector<std::string>>& rows, std::size_t row, const std::string& name) {
  for (std::size_t c = 0; c < rows[0].size(); ++c) {
    if (rows[0][c] == name) return c < rows[row].size() ? rows[row][c] : "";
  }
  return "<no column " + name + ">";
}

CorunResult predict(const std::string& csv, const std::string& policy, const std::string& gpu,
                    std::vector<std::string> sets = {}) {
  return predict_coruns({write_csv(policy + gpu, csv), policy, gpu, std::move(sets)}, GpuCatalog::builtin());
}

TEST(Corun, TimeSlicedPairFollowsTheDutyCycleModelAndASoloJobRunsAtFullSpeed) {
  const CorunResult result = predict(
      "group,job,gpu_util_pct,mem_util_pct,mem_mib\n"
      "p,a,30,10,2000\n"
      "p,b,30,10,2000\n"
      "solo,c,90,40,2000\n",
      "timeslice", "RTX3090");
  EXPECT_EQ(result.groups, 2u);
  EXPECT_EQ(result.rows, 3u);
  const auto rows = rows_of(result.csv);
  const CalibrationProfile& profile = builtin_calibration_profile("RTX3090");
  const double e = profile.default_slice_ns.value /
                   (profile.default_slice_ns.value + profile.switch_cost_ns.value + profile.cache_refill_ns.value);
  const double z = 0.7 * 0.7 + 2 * 0.3 * 0.7 + 2 * 0.3 * 0.3 / e;
  EXPECT_NEAR(std::stod(column(rows, 1, "speed")), 1 / z, 1e-6);
  EXPECT_NEAR(std::stod(column(rows, 2, "speed")), 1 / z, 1e-6);
  EXPECT_EQ(column(rows, 3, "speed"), "1.000000");
  EXPECT_EQ(column(rows, 1, "duty"), "0.3000");
  EXPECT_EQ(column(rows, 1, "status"), "ok");
  EXPECT_EQ(column(rows, 1, "job"), "a");  // the input columns are kept
}

TEST(Corun, BusyJobsTimeSlicedShareTheGpuAndMpsRunsThemConcurrently) {
  const std::string csv =
      "group,job,gpu_util_pct,mem_util_pct,mem_mib,sm_active\n"
      "p,a,100,20,2000,0.3\n"
      "p,b,100,20,2000,0.3\n";
  const auto sliced = rows_of(predict(csv, "timeslice", "A100-80GB").csv);
  EXPECT_LT(std::stod(column(sliced, 1, "speed")), 0.5);
  const auto mps = rows_of(predict(csv, "mps", "A100-80GB").csv);
  EXPECT_GT(std::stod(column(mps, 1, "speed")), std::stod(column(sliced, 1, "speed")));
}

TEST(Corun, LightJobsUnderMpsPressOnEachOtherOnlyWhileBothAreBusy) {
  const auto rows = rows_of(predict("group,job,gpu_util_pct,mem_util_pct,mem_mib\n"
                                    "p,a,30,10,2000\n"
                                    "p,b,30,10,2000\n",
                                    "mps", "A100-80GB")
                                .csv);
  // Always busy, two SM-bound clients would get 0.5 each.
  EXPECT_GT(std::stod(column(rows, 1, "speed")), 0.85);
}

TEST(Corun, AJobWithNoGpuWorkHoldsMemoryButTakesNoTurns) {
  const auto rows = rows_of(predict("group,job,gpu_util_pct,mem_util_pct,mem_mib\n"
                                    "p,idle,0,0,20000\n"
                                    "p,busy,100,40,2000\n"
                                    "q,idle,0,0,20000\n"
                                    "q,big,100,40,8000\n",
                                    "timeslice", "RTX3090")
                                .csv);
  EXPECT_EQ(column(rows, 1, "speed"), "1.000000");
  EXPECT_EQ(column(rows, 2, "speed"), "1.000000");                   // alone on the GPU's time
  EXPECT_EQ(column(rows, 4, "status").rfind("killed: OOM", 0), 0u);  // its memory still counts
}

TEST(Corun, AGroupThatOverflowsMemoryReportsTheOom) {
  const auto rows = rows_of(predict("group,job,gpu_util_pct,mem_util_pct,mem_mib\n"
                                    "p,a,50,10,16000\n"
                                    "p,b,50,10,16000\n",
                                    "timeslice", "RTX3090")
                                .csv);
  EXPECT_EQ(column(rows, 1, "status"), "ok");
  EXPECT_EQ(column(rows, 1, "speed"), "1.000000");  // alone once the other died
  EXPECT_EQ(column(rows, 2, "status").rfind("killed: OOM", 0), 0u) << column(rows, 2, "status");
  EXPECT_EQ(column(rows, 2, "speed"), "");
}

TEST(Corun, SharingSettingsComeFromSet) {
  const std::string csv =
      "group,job,gpu_util_pct,mem_util_pct,mem_mib\n"
      "p,a,100,50,2000\n";
  const auto full = rows_of(predict(csv, "mps", "A100-80GB").csv);
  const auto capped = rows_of(predict(csv, "mps", "A100-80GB", {"active_thread_percentage=25"}).csv);
  EXPECT_LT(std::stod(column(capped, 1, "speed")), std::stod(column(full, 1, "speed")));
}

std::string error_of(const std::string& csv, const std::string& policy = "timeslice",
                     const std::string& gpu = "RTX3090") {
  try {
    predict(csv, policy, gpu);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Corun, BadInputIsOneLocatedError) {
  const std::string header = "group,job,gpu_util_pct,mem_util_pct,mem_mib\n";
  std::string error = error_of(header + "p,a,150,10,100\n");
  EXPECT_NE(error.find("line 2"), std::string::npos) << error;
  EXPECT_NE(error.find("gpu_util_pct"), std::string::npos) << error;
  EXPECT_NE(error.find("150"), std::string::npos) << error;
  error = error_of(header + "p,a,-1,10,100\n");
  EXPECT_NE(error.find("gpu_util_pct"), std::string::npos) << error;
  error = error_of(header + "p,a,,10,100\n");
  EXPECT_NE(error.find("empty"), std::string::npos) << error;
  error = error_of("group,job,gpu_util_pct,mem_mib\np,a,50,100\n");
  EXPECT_NE(error.find("mem_util_pct"), std::string::npos) << error;
  error = error_of(header + "p,a,50,10,100\n", "timeslice", "RTX3099");
  EXPECT_NE(error.find("--gpu"), std::string::npos) << error;
  error = error_of(header + "p,a,50,10,100\n", "timeslize");
  EXPECT_NE(error.find("--policy"), std::string::npos) << error;
  error = error_of(header);
  EXPECT_NE(error.find("at least one row"), std::string::npos) << error;
}

}  // namespace
}  // namespace sharesim
