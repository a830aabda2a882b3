#include "kernels/host/fit.h"

#include <gtest/gtest.h>

#include "kernels/host/calib_error.h"
#include "kernels/host/json_read.h"
#include "kernels/host/profile.h"
#include "tests/unit/kernels/synthetic.h"

namespace sharesim::calib {
namespace {

using nlohmann::json;

// A raw file as sharesim-calibrate writes it, from synthetic measurements with known values.
json synthetic_raw() {
  json raw = {{"format", kRawFormat},
              {"gpu", "H100-80GB"},
              {"date", "2026-11-22T00:00:00Z"},
              {"device",
               {{"name", "NVIDIA H100 80GB HBM3"},
                {"driver", "570.124.06"},
                {"runtime", "13.0"},
                {"compute_capability", "9.0"},
                {"sm_count", 132}}}};
  json runs = json::array();
  for (int n = 2; n <= 4; ++n) {
    testing::ProbeSpec spec;
    spec.processes = n;
    spec.seed = static_cast<unsigned>(n);
    spec.duration_ns = 200e6;
    const ProbeRun run = testing::make_probe_run(spec);
    json contexts = json::array();
    for (const ContextLog& log : run.contexts) {
      json gaps = json::array();
      for (const Interval& g : log.gaps) gaps.push_back({g.begin, g.end});
      contexts.push_back({{"window_ns", {log.window.begin, log.window.end}}, {"gaps_ns", gaps}, {"gaps_lost", 0}});
    }
    runs.push_back({{"processes", n}, {"contexts", contexts}});
  }
  json walks = json::array();
  for (const Walk& w : testing::make_walks({})) walks.push_back({w.span.begin, w.span.end, w.after_switch ? 1 : 0});
  raw["timeslice"] = {{"threshold_ns", 4000}, {"runs", runs}, {"cache_refill", {{"walks", walks}}}};
  raw["basics"] = {{"launch_latency_ns", {4100, 4000, 3900, 4000, 90000}},
                   {"dram_bandwidth_gbps", {2900, 2950, 3000}},
                   {"fma_tflops", {51, 50, 52}}};
  raw["corun"] = {{"stressors",
                   {{"fma", {{"unit", "flop/s"}, {"dram_bytes_per_unit", 0}}},
                    {"triad", {{"unit", "byte/s"}, {"dram_bytes_per_unit", 1}}}}},
                  {"cases",
                   {{{"mode", "streams"}, {"kernels", {"fma"}}, {"throughput", {50e12}}},
                    {{"mode", "streams"}, {"kernels", {"triad"}}, {"throughput", {2.9e12}}},
                    {{"mode", "streams"}, {"kernels", {"fma", "triad"}}, {"throughput", {40e12, 2.0e12}}},
                    {{"mode", "mps"}, {"kernels", {"fma", "triad"}}, {"throughput", {41e12, 2.1e12}}},
                    {{"mode", "processes"}, {"kernels", {"fma", "triad"}}, {"throughput", {24e12, 1.4e12}}}}}};
  json points = json::array();
  for (const int k : {16, 32, 66, 132}) {
    points.push_back({{"stressor", "fma"}, {"requested_sms", k}, {"granted_sms", k}, {"throughput", 50e12 * k / 132}});
    points.push_back({{"stressor", "triad"},
                      {"requested_sms", k},
                      {"granted_sms", k},
                      {"throughput", 2.9e12 * std::min(1.0, k / 40.0)}});
  }
  raw["sm_scaling"] = {{"total_sms", 132}, {"points", points}};
  return raw;
}

FitOptions options() {
  FitOptions o;
  o.raw_data_reference = "results/calibration/raw/h100-test.json";
  o.base_path = "results/calibration/H100-80GB.json";
  o.base = read_ordered_json_file(std::string(SHARESIM_SOURCE_DIR) + "/" + o.base_path);
  return o;
}

TEST(Fit, RecoversKnownValuesWithMeasuredProvenance) {
  const FitResult r = fit_profile(parse_raw(synthetic_raw(), "raw.json"), "raw.json", options());
  const json p = json::parse(r.profile.dump());
  EXPECT_NO_THROW(check_profile(p, "fitted"));
  const json& slice = p["timeslice"]["default_slice_ns"];
  EXPECT_EQ(slice["provenance"], "measured");
  EXPECT_EQ(slice["measured"]["device"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(slice["measured"]["driver"], "570.124.06");
  EXPECT_EQ(slice["measured"]["raw_data"], "results/calibration/raw/h100-test.json");
  EXPECT_NEAR(slice["value"].get<double>(), 1024000, 10000);
  EXPECT_NEAR(p["timeslice"]["switch_cost_ns"]["value"].get<double>(), 30000, 3000);
  EXPECT_NEAR(p["timeslice"]["cache_refill_ns"]["value"].get<double>(), 15000, 500);
  EXPECT_EQ(p["basics"]["launch_latency_ns"]["value"], 4000);  // the 90 us outlier is rejected
  EXPECT_DOUBLE_EQ(p["basics"]["dram_bandwidth_gbps"]["value"].get<double>(), 2950);
  EXPECT_EQ(p["contention"]["interference_factor"]["provenance"], "measured");
  EXPECT_NE(p["contention"]["interference_factor"]["note"].get<std::string>().find("mps"), std::string::npos);
  // Not measured here: copied from the base with its provenance.
  EXPECT_EQ(p["vgpu"]["slice_ns_up_to_8"]["provenance"], "documented");
  EXPECT_EQ(p["mig"]["reconfiguration_ns"]["provenance"], "assumed");
  // Further sections.
  EXPECT_TRUE(p["timeslice_by_processes"].contains("slice_ns_3"));
  EXPECT_NEAR(p["sm_scaling"]["fma_parallel_fraction"]["value"].get<double>(), 1.0, 1e-3);
  EXPECT_TRUE(p["corun"].contains("interference_factor_processes"));
  EXPECT_TRUE(p["corun_ratios"].contains("mps:fma+triad:triad"));
  EXPECT_FALSE(r.report.empty());
}

TEST(Fit, SameRawDataGivesByteIdenticalProfiles) {
  const RawData raw = parse_raw(synthetic_raw(), "raw.json");
  EXPECT_EQ(fit_profile(raw, "raw.json", options()).profile.dump(2),
            fit_profile(parse_raw(synthetic_raw(), "raw.json"), "raw.json", options()).profile.dump(2));
}

TEST(Fit, PartialRawDataFitsWhatItHas) {
  json raw = synthetic_raw();
  raw.erase("timeslice");
  raw.erase("corun");
  raw.erase("sm_scaling");
  const json p = json::parse(fit_profile(parse_raw(raw, "raw.json"), "raw.json", options()).profile.dump());
  EXPECT_EQ(p["basics"]["fma_tflops"]["provenance"], "measured");
  // Not in the raw file: copied from the base as it is there (the shipped H100 profile is measured).
  EXPECT_EQ(p["timeslice"]["default_slice_ns"], json::parse(options().base["timeslice"]["default_slice_ns"].dump()));
  EXPECT_FALSE(p.contains("sm_scaling"));
}

std::string raw_problem(const json& raw) {
  try {
    parse_raw(raw, "raw.json");
  } catch (const CalibError& e) {
    return e.what();
  }
  return "";
}

TEST(RawData, BadFilesNameThePointerAndWhatWasExpected) {
  json raw = synthetic_raw();
  EXPECT_EQ(raw_problem(raw), "");
  raw["timeslice"]["runs"][1]["contexts"][0]["gaps_ns"][2] = {10, 5};
  EXPECT_EQ(raw_problem(raw),
            "raw.json: /timeslice/runs/1/contexts/0/gaps_ns/2: expected 0 <= begin_ns <= end_ns, found [10,5]");
  raw = synthetic_raw();
  raw["timeslice"]["runs"][0]["processes"] = 3;
  EXPECT_NE(raw_problem(raw).find("/timeslice/runs/0/contexts: expected 3 context logs"), std::string::npos);
  raw = synthetic_raw();
  raw["corun"]["cases"][2]["kernels"][1] = "tensor";
  EXPECT_NE(raw_problem(raw).find("/corun/cases/2/kernels/1: expected the name of a stressor"), std::string::npos);
  raw = synthetic_raw();
  raw["basics"]["fma_tflops"][1] = "fast";
  EXPECT_EQ(raw_problem(raw), "raw.json: /basics/fma_tflops/1: expected a number, found a string \"fast\"");
  raw = synthetic_raw();
  raw["timeslice"]["threshold_ns"] = 1000;
  EXPECT_NE(raw_problem(raw).find("/timeslice/threshold_ns: expected an integer from 2000"), std::string::npos);
  raw = synthetic_raw();
  raw.erase("device");
  EXPECT_EQ(raw_problem(raw), "raw.json: /device: required key is missing");
  EXPECT_NE(
      raw_problem(
          json{{"format", kRawFormat}, {"gpu", "H100-80GB"}, {"date", "d"}, {"device", synthetic_raw()["device"]}})
          .find("no measurement section"),
      std::string::npos);
}

}  // namespace
}  // namespace sharesim::calib
