// sharesim-calibrate compare on the committed H100 and H200 profiles and on perturbed copies:
// tolerances come from the spread of the raw samples the profile was fitted from.
#include "kernels/host/profile_compare.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "kernels/host/calib_error.h"
#include "kernels/host/json_read.h"

namespace sharesim::calib {
namespace {

namespace fs = std::filesystem;

const std::string kH100 = std::string(SHARESIM_SOURCE_DIR) + "/results/calibration/H100-80GB.json";
const std::string kH200 = std::string(SHARESIM_SOURCE_DIR) + "/results/calibration/H200-141GB.json";

const MetricRow& row(const CheckReport& report, const std::string& name) {
  for (const MetricRow& r : report.rows) {
    if (r.name == name) return r;
  }
  throw std::runtime_error("no row " + name);
}

// A copy of the H100 profile with `edit` applied, beside the original so its raw_data resolves.
std::string perturbed(const std::string& name, const std::function<void(nlohmann::ordered_json&)>& edit) {
  nlohmann::ordered_json profile = read_ordered_json_file(kH100);
  edit(profile);
  const fs::path path = fs::temp_directory_path() / ("sharesim-" + name + "-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << profile.dump(2);
  return path.string();
}

ProfileCompareOptions with_raw() {
  ProfileCompareOptions options;
  options.reference_raw = std::string(SHARESIM_SOURCE_DIR) + "/results/calibration/raw/H100-80GB-20261123.json";
  options.new_raw = options.reference_raw;
  return options;
}

TEST(ProfileCompare, TheCommittedProfilesMatchThemselves) {
  for (const std::string& profile : {kH100, kH200}) {
    const CheckReport report = compare_profiles(profile, profile, {});
    EXPECT_EQ(report.failures(), 0u) << profile;
    EXPECT_EQ(report.moved(), 0u) << profile;
    EXPECT_GT(report.rows.size(), 20u) << profile;  // every measured field
    EXPECT_TRUE(report.notes.empty()) << report.notes[0];
  }
}

TEST(ProfileCompare, ToleranceComesFromTheRawSpread) {
  const CheckReport report = compare_profiles(kH100, kH100, {});
  // The switch gap and the DRAM bandwidth are medians of repeated samples: their tolerance is
  // 3 robust SDs (at least 1%), not the 5% of fields without samples.
  for (const char* field : {"timeslice.switch_cost_ns", "timeslice.default_slice_ns", "basics.dram_bandwidth_gbps"}) {
    const std::string tolerance = row(report, field).tolerance;
    EXPECT_NE(tolerance, "5%") << field;
    EXPECT_GE(std::stod(tolerance), 1.0) << field;
  }
  EXPECT_EQ(row(report, "contention.interference_factor").tolerance, "5%");  // a fit, no samples
  // Fields nobody measured (literature, assumed) are not compared.
  EXPECT_THROW(row(report, "timeslice.short_slice_ns"), std::runtime_error);
}

TEST(ProfileCompare, AFieldMovedBeyondItsSpreadFails) {
  const std::string slower = perturbed("slower", [](nlohmann::ordered_json& p) {
    p["timeslice"]["switch_cost_ns"]["value"] = p["timeslice"]["switch_cost_ns"]["value"].get<double>() * 1.5;
  });
  const CheckReport report = compare_profiles(slower, kH100, with_raw());
  EXPECT_EQ(row(report, "timeslice.switch_cost_ns").status, MetricRow::Status::regressed);
  EXPECT_EQ(row(report, "timeslice.switch_cost_ns").change, "+50.00%");
  EXPECT_EQ(report.failures(), 1u);
  ProfileCompareOptions loose = with_raw();
  loose.tolerances = {parse_tolerance_rule("timeslice.switch_cost_*=60%", "--tol")};
  EXPECT_EQ(compare_profiles(slower, kH100, loose).failures(), 0u);
  fs::remove(slower);
}

TEST(ProfileCompare, AMoveWithinTheSpreadPasses) {
  const CheckReport reference = compare_profiles(kH100, kH100, {});
  const double tolerance = std::stod(row(reference, "timeslice.default_slice_ns").tolerance) / 100;
  const std::string nudged = perturbed("nudged", [&](nlohmann::ordered_json& p) {
    p["timeslice"]["default_slice_ns"]["value"] =
        std::round(p["timeslice"]["default_slice_ns"]["value"].get<double>() * (1 + tolerance / 2));
  });
  const CheckReport report = compare_profiles(nudged, kH100, with_raw());
  EXPECT_EQ(row(report, "timeslice.default_slice_ns").status, MetricRow::Status::within);
  EXPECT_EQ(report.failures(), 0u);
  fs::remove(nudged);
}

TEST(ProfileCompare, AFieldNoLongerMeasuredIsMissing) {
  const std::string unmeasured = perturbed("unmeasured", [](nlohmann::ordered_json& p) {
    nlohmann::ordered_json& field = p["basics"]["fma_tflops"];
    field.erase("measured");
    field["provenance"] = "assumed";
    field["note"] = "assumed for the test";
  });
  const CheckReport report = compare_profiles(unmeasured, kH100, with_raw());
  EXPECT_EQ(row(report, "basics.fma_tflops").status, MetricRow::Status::missing);
  EXPECT_EQ(report.failures(), 1u);
  fs::remove(unmeasured);
}

TEST(ProfileCompare, ProfilesOfTwoGpusAreBadInput) {
  try {
    compare_profiles(kH200, kH100, {});
    ADD_FAILURE();
  } catch (const CalibError& e) {
    EXPECT_NE(std::string(e.what()).find("/gpu: expected the reference's GPU \"H100-80GB\""), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace sharesim::calib
