#include "kernels/host/profile.h"

#include <gtest/gtest.h>

#include <string>

#include "kernels/host/calib_error.h"
#include "kernels/host/json_read.h"

namespace sharesim::calib {
namespace {

const std::string kDir = std::string(SHARESIM_SOURCE_DIR) + "/results/calibration/";

nlohmann::json literature(const std::string& gpu) { return read_json_file(kDir + gpu + ".json"); }

// The message of the CalibError `profile` raises ("" if none).
std::string problem(const nlohmann::json& profile) {
  try {
    check_profile(profile, "p.json");
  } catch (const CalibError& e) {
    return e.what();
  }
  return "";
}

TEST(Profile, ShippedLiteratureProfilesAreValidAndNotMeasured) {
  for (const std::string gpu : {"A100-40GB", "A100-80GB"}) {
    SCOPED_TRACE(gpu);
    const nlohmann::json p = literature(gpu);
    EXPECT_NO_THROW(check_profile(p, gpu));
    EXPECT_EQ(p["gpu"], gpu);
    // Never run on such a GPU: nothing may claim to be measured.
    for (const auto& [section, fields] : p.items()) {
      if (!fields.is_object()) continue;
      for (const auto& [name, field] : fields.items()) EXPECT_NE(field["provenance"], "measured") << section << name;
    }
    EXPECT_EQ(p["timeslice"]["default_slice_ns"]["value"], 1024000);
    EXPECT_EQ(p["timeslice"]["default_slice_ns"]["provenance"], "documented");
    EXPECT_EQ(p["vgpu"]["slice_ns_up_to_8"]["value"], 2000000);
    EXPECT_EQ(p["vgpu"]["slice_ns_above_8"]["value"], 1000000);
  }
}

// H100-80GB and H200-141GB were measured (docs/calibration.md, "Measured against literature:
// H100-80GB" and "... H200-141GB"): every measured number names a raw file of that GPU that is in
// the repository; what was not measured keeps its documented or assumed provenance, and the vGPU
// switch cost stays assumed equal to the measured time-slice switch cost.
TEST(Profile, ShippedMeasuredProfilesNameTheirRawData) {
  for (const std::string gpu : {"H100-80GB", "H200-141GB"}) {
    SCOPED_TRACE(gpu);
    const nlohmann::json p = literature(gpu);
    EXPECT_NO_THROW(check_profile(p, gpu));
    EXPECT_EQ(p["gpu"], gpu);
    int measured = 0;
    for (const auto& [section, fields] : p.items()) {
      if (!fields.is_object()) continue;
      for (const auto& [name, field] : fields.items()) {
        if (field["provenance"] != "measured") continue;
        ++measured;
        const std::string raw = field["measured"]["raw_data"];
        EXPECT_EQ(raw.rfind("results/calibration/raw/" + gpu + "-", 0), 0u) << section << "." << name << ": " << raw;
        EXPECT_NO_THROW((void)read_json_file(std::string(SHARESIM_SOURCE_DIR) + "/" + raw)) << section << "." << name;
      }
    }
    EXPECT_GT(measured, 0);
    for (const char* field : {"default_slice_ns", "switch_cost_ns", "cache_refill_ns"}) {
      EXPECT_EQ(p["timeslice"][field]["provenance"], "measured") << field;
    }
    EXPECT_EQ(p["contention"]["interference_factor"]["provenance"], "measured");
    EXPECT_EQ(p["vgpu"]["slice_ns_up_to_8"]["value"], 2000000);
    EXPECT_EQ(p["vgpu"]["slice_ns_up_to_8"]["provenance"], "documented");
    EXPECT_EQ(p["vgpu"]["slice_ns_above_8"]["value"], 1000000);
    EXPECT_EQ(p["vgpu"]["switch_cost_ns"]["provenance"], "assumed");
    EXPECT_EQ(p["vgpu"]["switch_cost_ns"]["value"], p["timeslice"]["switch_cost_ns"]["value"]);
    EXPECT_EQ(p["mig"]["reconfiguration_ns"]["provenance"], "assumed");
  }
}

TEST(Profile, RejectsAFieldWithoutProvenance) {
  nlohmann::json p = literature("H100-80GB");
  p["timeslice"]["switch_cost_ns"].erase("provenance");
  EXPECT_EQ(problem(p),
            "p.json: /timeslice/switch_cost_ns/provenance: expected one of \"measured\", \"documented\", "
            "\"assumed\", found nothing");
  p = literature("H100-80GB");
  p["timeslice"]["switch_cost_ns"] = 25000;  // a bare number
  EXPECT_NE(problem(p).find("/timeslice/switch_cost_ns: expected an object"), std::string::npos) << problem(p);
}

TEST(Profile, EachProvenanceNeedsItsKeys) {
  nlohmann::json p = literature("A100-40GB");
  p["basics"]["fma_tflops"].erase("source");
  EXPECT_NE(problem(p).find("/basics/fma_tflops/source: expected a non-empty string"), std::string::npos);
  p = literature("A100-40GB");
  p["mig"]["reconfiguration_ns"]["note"] = "";
  EXPECT_NE(problem(p).find("/mig/reconfiguration_ns/note"), std::string::npos);
  p = literature("A100-40GB");
  p["timeslice"]["cache_refill_ns"] = {
      {"value", 1}, {"provenance", "measured"}, {"measured", {{"device", "d"}, {"driver", "1"}, {"date", "x"}}}};
  EXPECT_NE(problem(p).find("/timeslice/cache_refill_ns/measured/raw_data"), std::string::npos) << problem(p);
  p["timeslice"]["cache_refill_ns"]["measured"]["raw_data"] = "results/calibration/raw/x.json";
  EXPECT_EQ(problem(p), "");
  p["timeslice"]["cache_refill_ns"]["provenance"] = "guessed";
  EXPECT_NE(problem(p).find("found \"guessed\""), std::string::npos);
}

TEST(Profile, RangesUnknownAndMissingFields) {
  nlohmann::json p = literature("H200-141GB");
  p["contention"]["interference_factor"]["value"] = 1.5;
  EXPECT_NE(problem(p).find("/contention/interference_factor/value: expected a number from"), std::string::npos);
  p = literature("H200-141GB");
  p["timeslice"]["default_slice"] = p["timeslice"]["default_slice_ns"];
  EXPECT_NE(problem(p).find("unknown field \"default_slice\""), std::string::npos);
  p = literature("H200-141GB");
  p["vgpu"].erase("slice_ns_above_8");
  EXPECT_NE(problem(p).find("/vgpu/slice_ns_above_8: missing field"), std::string::npos);
  p = literature("H200-141GB");
  p["format"] = "sharesim-calibration/2";
  EXPECT_NE(problem(p).find("/format"), std::string::npos);
}

TEST(Profile, ExtraSectionsFollowTheSameRule) {
  nlohmann::json p = literature("H100-80GB");
  p["sm_scaling"] = {{"fma_parallel_fraction", {{"value", 0.99}, {"provenance", "assumed"}, {"note", "n"}}},
                     {"curves", {{"fma", {{"value", {1, 0.5}}, {"provenance", "assumed"}, {"note", "n"}}}}}};
  EXPECT_EQ(problem(p), "");
  p["sm_scaling"]["curves"]["triad"] = 0.5;
  EXPECT_NE(problem(p).find("/sm_scaling/curves/triad: expected a value with provenance"), std::string::npos);
}

TEST(Profile, MeasuredFieldCarriesItsMeasurement) {
  const nlohmann::ordered_json f =
      measured_field(1024000, {"NVIDIA H100 80GB HBM3", "570.1", "2026-01-01", "r.json"}, "n");
  EXPECT_EQ(f["value"], 1024000);
  EXPECT_TRUE(f["value"].is_number_integer());
  EXPECT_EQ(f["measured"]["raw_data"], "r.json");
  EXPECT_TRUE(measured_field(0.25, {"d", "v", "t", "r"}, "")["value"].is_number_float());
}

}  // namespace
}  // namespace sharesim::calib
