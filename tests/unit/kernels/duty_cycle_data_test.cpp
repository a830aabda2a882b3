// The duty-cycle probe's raw section: strict reading, and the speed and utilization derived from
// what each process recorded (docs/calibration.md, "Duty-cycle probe").
#include "kernels/host/duty_cycle_data.h"

#include <gtest/gtest.h>

#include "kernels/host/calib_error.h"
#include "kernels/host/raw_data.h"

namespace sharesim::calib {
namespace {

using nlohmann::json;

json process(std::int64_t kernels, std::int64_t busy_ns, std::int64_t host_ns) {
  return {{"host_mean_ns", 80000000}, {"window_ns", busy_ns + host_ns},
          {"cycles", kernels / 20},   {"kernels", kernels},
          {"busy_ns", busy_ns},       {"host_ns", host_ns}};
}

json duty_raw() {
  json smi = json::array();
  for (int i = 0; i < 30; ++i) smi.push_back({i < 10 ? 0.0 : 20.0 + (i % 2) * 10.0, 0.0, 1053.0});
  return {{"format", kRawFormat},
          {"gpu", "H100-80GB"},
          {"date", "2026-11-25T00:00:00Z"},
          {"device",
           {{"name", "NVIDIA H100 80GB HBM3"},
            {"driver", "580.159.04"},
            {"runtime", "13.0"},
            {"compute_capability", "9.0"},
            {"sm_count", 132}}},
          {"duty_cycle",
           {{"kernel_ns_tuned", 1000000},
            {"kernels_per_phase", 20},
            {"seconds", 4.0},
            {"cases",
             {{{"mode", "processes"},
               {"host_phases", "exponential"},
               {"duties", {0.2}},
               {"processes", {process(1000, 1000000000, 3000000000)}},
               {"nvidia_smi", smi}},
              {{"mode", "processes"},
               {"host_phases", "fixed"},
               {"duties", {0.2, 0.2}},
               {"processes", {process(800, 1200000000, 2400000000), process(800, 1000000000, 2400000000)}},
               {"nvidia_smi", json::array()}}}}}}};
}

std::string problem(const json& raw) {
  try {
    parse_raw(raw, "raw.json");
  } catch (const CalibError& e) {
    return e.what();
  }
  return "";
}

TEST(DutyCycleData, ReadsTheSectionAndDerivesSpeedAndUtilization) {
  const RawData raw = parse_raw(duty_raw(), "raw.json");
  ASSERT_TRUE(raw.duty_cycle.has_value());
  ASSERT_EQ(raw.duty_cycle->cases.size(), 2u);
  const DutyCase& alone = raw.duty_cycle->cases[0];
  EXPECT_DOUBLE_EQ(solo_kernel_ns(alone.processes[0]), 1e6);
  EXPECT_DOUBLE_EQ(duty_speed(alone.processes[0], 1e6), 1.0);
  // samples 10..29 alternate 20 and 30: the first second is left out
  EXPECT_DOUBLE_EQ(mean_gpu_util_pct(alone), 25.0);
  const DutyCase& pair = raw.duty_cycle->cases[1];
  EXPECT_EQ(pair.host_phases, "fixed");
  EXPECT_DOUBLE_EQ(pair.processes[1].duty, 0.2);
  // 800 kernels of 1 ms alone + 2.4 s of host work took 3.6 s: speed 3.2 / 3.6
  EXPECT_DOUBLE_EQ(duty_speed(pair.processes[0], 1e6), 3.2 / 3.6);
  EXPECT_DOUBLE_EQ(mean_gpu_util_pct(pair), -1);  // no samples
}

TEST(DutyCycleData, BadSectionsNameThePointerAndWhatWasExpected) {
  EXPECT_EQ(problem(duty_raw()), "");
  json raw = duty_raw();
  raw["duty_cycle"]["cases"][1]["mode"] = "streams";
  EXPECT_EQ(problem(raw), "raw.json: /duty_cycle/cases/1/mode: expected \"processes\" or \"mps\", found \"streams\"");
  raw = duty_raw();
  raw["duty_cycle"]["cases"][1]["duties"] = {0.2};
  EXPECT_NE(problem(raw).find("/duty_cycle/cases/1/processes: expected 1 process records"), std::string::npos);
  raw = duty_raw();
  raw["duty_cycle"]["cases"][0]["duties"][0] = 1.5;
  EXPECT_NE(problem(raw).find("/duty_cycle/cases/0/duties/0: expected a duty in (0, 1]"), std::string::npos);
  raw = duty_raw();
  raw["duty_cycle"]["cases"][0]["processes"][0]["kernels"] = 0;
  EXPECT_NE(problem(raw).find("/duty_cycle/cases/0/processes/0/kernels: expected an integer from 1"),
            std::string::npos);
  raw = duty_raw();
  raw["duty_cycle"]["cases"][0]["nvidia_smi"][3] = {1.0, 2.0};
  EXPECT_NE(problem(raw).find("/duty_cycle/cases/0/nvidia_smi/3: expected [utilization.gpu %"), std::string::npos);
  raw = duty_raw();
  raw["duty_cycle"]["cases"][0]["host_phases"] = "uniform";
  EXPECT_NE(problem(raw).find("/duty_cycle/cases/0/host_phases: expected \"exponential\" or \"fixed\""),
            std::string::npos);
}

}  // namespace
}  // namespace sharesim::calib
