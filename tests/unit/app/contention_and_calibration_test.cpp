// The contention model (water-filling) and the calibration profiles (docs/models.md,
// docs/calibration.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <latch>
#include <thread>
#include <vector>

#include "policies/calibration/calibration_profile.h"
#include "policies/contention/contention_model.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

std::vector<double> solve(const std::vector<ContentionTask>& tasks) {
  std::vector<double> rates(tasks.size());
  solve_contention(tasks, rates);
  return rates;
}

TEST(ContentionModel, TwoFullGpuTasksShareSmsEqually) {
  const auto rates = solve({{1.0, 0.1, 1.0, 1.0}, {1.0, 0.1, 1.0, 1.0}});
  EXPECT_DOUBLE_EQ(rates[0], 0.5);
  EXPECT_DOUBLE_EQ(rates[1], 0.5);
}

TEST(ContentionModel, SmallTasksThatFitTogetherRunAtFullSpeed) {
  const auto rates = solve({{0.3, 0.2, 1.0, 1.0}, {0.4, 0.3, 1.0, 1.0}, {0.2, 0.1, 1.0, 1.0}});
  for (double r : rates) EXPECT_DOUBLE_EQ(r, 1.0);
}

TEST(ContentionModel, BandwidthBottleneckLimitsTheRate) {
  // SMs fit (0.4 + 0.4), bandwidth does not (0.8 + 0.8): each gets 1 / 1.6 of its demand.
  const auto rates = solve({{0.4, 0.8, 1.0, 1.0}, {0.4, 0.8, 1.0, 1.0}});
  EXPECT_NEAR(rates[0], 0.625, 1e-12);
  EXPECT_NEAR(rates[1], 0.625, 1e-12);
}

TEST(ContentionModel, CappedTaskLeavesItsShareToOthers) {
  // Task 0 may use 25% of the SMs (MPS thread cap): rate 0.25; task 1 takes the rest.
  const auto rates = solve({{1.0, 0.1, 0.25, 1.0}, {1.0, 0.1, 1.0, 1.0}});
  EXPECT_NEAR(rates[0], 0.25, 1e-12);
  EXPECT_NEAR(rates[1], 0.75, 1e-12);
}

TEST(ContentionModel, MaxMinFairnessAcrossDifferentBottlenecks) {
  // Task 0 is SM-heavy, task 1 bandwidth-heavy, task 2 uses both: progressive filling
  // saturates bandwidth first (tasks 1 and 2 freeze), then task 0 takes the remaining SMs.
  const auto rates = solve({{0.6, 0.0, 1.0, 1.0}, {0.0, 0.9, 1.0, 1.0}, {0.5, 0.5, 1.0, 1.0}});
  const double t = 1.0 / 1.4;  // 0.9 t + 0.5 t = 1
  EXPECT_NEAR(rates[1], t, 1e-12);
  EXPECT_NEAR(rates[2], t, 1e-12);
  EXPECT_NEAR(rates[0], 1.0, 1e-12);  // 0.6 + 0.5 t = 0.957 <= 1: task 0 reaches standalone speed
  // No resource is over-used.
  EXPECT_LE(0.6 * rates[0] + 0.5 * rates[2], 1.0 + 1e-12);
  EXPECT_LE(0.9 * rates[1] + 0.5 * rates[2], 1.0 + 1e-12);
}

TEST(ContentionModel, WeightsSplitASaturatedResource) {
  const auto rates = solve({{1.0, 0.0, 1.0, 3.0}, {1.0, 0.0, 1.0, 1.0}});
  EXPECT_NEAR(rates[0], 0.75, 1e-12);
  EXPECT_NEAR(rates[1], 0.25, 1e-12);
}

TEST(ContentionModel, IdleTaskGetsNothing) {
  const auto rates = solve({{0.0, 0.0, 1.0, 1.0}, {1.0, 0.5, 1.0, 1.0}});
  EXPECT_EQ(rates[0], 0.0);
  EXPECT_DOUBLE_EQ(rates[1], 1.0);
}

TEST(CalibrationProfile, EveryBuiltInProfileLoadsWithProvenance) {
  const std::vector<std::string> ids = builtin_calibration_ids();
  ASSERT_FALSE(ids.empty());
  EXPECT_NE(std::find(ids.begin(), ids.end(), "default"), ids.end());
  for (const std::string& id : ids) {
    const nlohmann::ordered_json fields = builtin_calibration_profile(id).to_json();
    for (const auto& [section, body] : fields.items()) {
      if (!body.is_object()) continue;
      for (const auto& [field, value] : body.items()) {
        const std::string provenance = value["provenance"];
        EXPECT_TRUE(provenance == "documented" || provenance == "assumed" || provenance == "measured")
            << id << " " << section << "." << field;
        EXPECT_FALSE(value["source"].get<std::string>().empty()) << id << " " << section << "." << field;
      }
    }
  }
  // The driver's default time slice (documented, kernel_fifo_gv100.c).
  EXPECT_EQ(builtin_calibration_profile("default").default_slice_ns.value, 1024000);
  EXPECT_EQ(builtin_calibration_profile("default").default_slice_ns.provenance, "documented");
  EXPECT_EQ(builtin_calibration_profile("no-such-gpu").gpu, "default");
}

// A profile is parsed on its first use, by whichever thread asks first: a sweep's runs build
// their clusters on several threads. ctest runs each test in a process of its own, so here the
// threads race for the first parse of every profile; each must get the one parsed profile.
TEST(CalibrationProfile, ThreadsAskingAtOnceGetTheSameParsedProfile) {
  const std::vector<std::string> ids = builtin_calibration_ids();
  std::vector<std::vector<const CalibrationProfile*>> seen(8);
  std::vector<std::thread> threads;
  std::latch start(static_cast<std::ptrdiff_t>(seen.size()));
  for (std::size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&ids, &seen, &start, t] {
      start.arrive_and_wait();  // all at once
      // Half the threads walk the ids backwards, so that first parses overlap.
      for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::string& id = t % 2 == 0 ? ids[i] : ids[ids.size() - 1 - i];
        seen[t].push_back(&builtin_calibration_profile(id));
      }
      if (t % 2 == 1) std::reverse(seen[t].begin(), seen[t].end());
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (std::size_t t = 1; t < seen.size(); ++t) EXPECT_EQ(seen[t], seen[0]) << "thread " << t;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(seen[0][i]->gpu, ids[i]);
    EXPECT_EQ(seen[0][i], &builtin_calibration_profile(ids[i]));
  }
}

std::string profile_with(const std::string& switch_cost) {
  std::string text = std::string(R"({"format": "sharesim-calibration/1", "gpu": "default", "timeslice": {)");
  for (const char* f : {"default_slice_ns", "short_slice_ns", "medium_slice_ns", "long_slice_ns", "cache_refill_ns"}) {
    text += std::string("\"") + f + R"(": {"value": 1000, "provenance": "assumed", "note": "test"},)";
  }
  text += R"("switch_cost_ns": )" + switch_cost + "},";
  text += R"("vgpu": {"slice_ns_up_to_8": {"value": 2000000, "provenance": "documented", "source": "guide"},
    "slice_ns_above_8": {"value": 1000000, "provenance": "documented", "source": "guide"},
    "switch_cost_ns": {"value": 0, "provenance": "assumed", "note": "t"}},
    "contention": {"interference_factor": {"value": 0.9, "provenance": "measured",
      "measured": {"device": "H100", "driver": "580", "date": "2026-11-01", "raw_data": "raw/h100.json"}}},
    "mig": {"reconfiguration_ns": {"value": 1, "provenance": "assumed", "note": "t"}},
    "basics": {"launch_latency_ns": {"value": 1, "provenance": "assumed", "note": "t"},
      "dram_bandwidth_gbps": {"value": 1, "provenance": "assumed", "note": "t"},
      "fma_tflops": {"value": 1, "provenance": "assumed", "note": "t"}}})";
  return text;
}

std::string error_of(const std::string& text) {
  try {
    parse_calibration_profile(text, "p.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CalibrationProfile, AcceptsEachProvenanceKind) {
  const CalibrationProfile profile =
      parse_calibration_profile(profile_with(R"({"value": 5, "provenance": "assumed", "note": "n"})"), "p.json");
  EXPECT_EQ(profile.switch_cost_ns.value, 5);
  EXPECT_EQ(profile.interference_factor.provenance, "measured");
  EXPECT_NE(profile.interference_factor.source.find("raw/h100.json"), std::string::npos);
}

TEST(CalibrationProfile, RejectsAFieldWithoutProvenance) {
  EXPECT_EQ(error_of(profile_with("25000")),
            "p.json: /timeslice/switch_cost_ns: expected an object {\"value\", \"provenance\", ...}, found 25000");
  EXPECT_EQ(error_of(profile_with(R"({"value": 5})")),
            "p.json: /timeslice/switch_cost_ns/provenance: expected one of \"measured\", \"documented\", \"assumed\", "
            "found nothing");
  EXPECT_EQ(error_of(profile_with(R"({"value": 5, "provenance": "documented"})")),
            "p.json: /timeslice/switch_cost_ns/source: expected a non-empty string (a documented value names its "
            "source), found nothing");
  EXPECT_EQ(error_of(profile_with(R"({"value": 5, "provenance": "measured", "measured": {"device": "x"}})")),
            "p.json: /timeslice/switch_cost_ns/measured/driver: expected a non-empty string (a measured value names "
            "its measurement), found nothing");
  EXPECT_EQ(error_of(profile_with(R"({"value": -1, "provenance": "assumed", "note": "n"})")),
            "p.json: /timeslice/switch_cost_ns/value: expected a number from 0 to 1000000000000, found -1");
}

TEST(CalibrationProfile, ExtraSectionsMustCarryProvenanceToo) {
  std::string text = profile_with(R"({"value": 5, "provenance": "assumed", "note": "n"})");
  text.insert(text.size() - 1, R"(, "sm_scaling": {"fma": {"k16": 0.15}})");
  EXPECT_EQ(error_of(text),
            "p.json: /sm_scaling/fma/k16: expected a value with provenance {\"value\", \"provenance\", ...}, found a "
            "bare number");
}

TEST(CalibrationProfile, OverridesNameKnownFields) {
  CalibrationProfile profile = builtin_calibration_profile("default");
  apply_calibration_overrides(profile, nlohmann::json::parse(R"({"timeslice": {"switch_cost_ns": 0}})"), "s.json",
                              "/calibration/overrides");
  EXPECT_EQ(profile.switch_cost_ns.value, 0);
  EXPECT_EQ(profile.switch_cost_ns.provenance, "scenario override");
  try {
    apply_calibration_overrides(profile, nlohmann::json::parse(R"({"timeslice": {"switch_cost": 0}})"), "s.json",
                                "/calibration/overrides");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "s.json: /calibration/overrides/timeslice/switch_cost: unknown field \"switch_cost\" in calibration "
                 "section \"timeslice\"; did you mean \"switch_cost_ns\"?");
  }
}

}  // namespace
}  // namespace sharesim
