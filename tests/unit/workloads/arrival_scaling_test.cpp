// Load scaling (workloads/arrival_scaling.h, docs/scenario.md "Load scaling"): time_scale and
// load_factor move arrival times exactly as defined, for generators and traces, at workload
// level and per source; bad values are located errors.
#include "workloads/arrival_scaling.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/unit/workloads/workload_test_helpers.h"

namespace sharesim::testing {
namespace {

nlohmann::json poisson_generator(double rate, std::uint64_t count, const std::string& start = "0s") {
  return {{"name", "g"},
          {"kind", "training"},
          {"count", count},
          {"start", start},
          {"arrival", {{"process", "poisson"}, {"rate_per_s", rate}}},
          {"duration", {{"dist", "exponential"}, {"mean_s", 100}}}};
}

std::vector<SimTime> arrivals(const nlohmann::json& workload) {
  BuiltWorkload w(workload);
  std::vector<SimTime> t;
  for (const JobSpec& job : w.drain()) t.push_back(job.arrival);
  return t;
}

TEST(ArrivalScaling, ScaleOffsetRoundsToTheNearestNanosecondAndSaturates) {
  EXPECT_EQ(scale_offset(3, 0.5L), 2);  // 1.5 rounds away from zero
  EXPECT_EQ(scale_offset(4, 0.5L), 2);
  EXPECT_EQ(scale_offset(7, 2.0L), 14);
  EXPECT_EQ(scale_offset(0, 0.25L), 0);
  EXPECT_EQ(scale_offset(kTimeNever, 1.0L), kTimeNever);
  EXPECT_EQ(scale_offset(kTimeNever / 2 + 1, 2.0L), kTimeNever);
  // Exact for offsets beyond 2^53 ns (104 days), where a double would not be.
  const SimTime big = (SimTime{1} << 60) + 1;
  EXPECT_EQ(scale_offset(big, 2.0L), 2 * big);
}

TEST(ArrivalScaling, TimeScaleMultipliesAGeneratorsOffsetsFromItsStart) {
  const std::vector<SimTime> base = arrivals({{"generators", {poisson_generator(0.1, 200, "50s")}}});
  nlohmann::json scaled = poisson_generator(0.1, 200, "50s");
  scaled["time_scale"] = 0.5;
  const std::vector<SimTime> half = arrivals({{"generators", {scaled}}});
  ASSERT_EQ(half.size(), base.size());
  for (std::size_t i = 0; i < base.size(); ++i) {
    EXPECT_EQ(half[i], 50 * kSecond + scale_offset(base[i] - 50 * kSecond, 0.5L)) << i;
  }
  // The same factor given at workload level: the same arrivals.
  EXPECT_EQ(arrivals({{"time_scale", 0.5}, {"generators", {poisson_generator(0.1, 200, "50s")}}}), half);
}

TEST(ArrivalScaling, LoadFactorMultipliesAGeneratorsRates) {
  // Poisson: load_factor 3 is the rate 0.3 written out (the same draws, the same jobs).
  nlohmann::json scaled = poisson_generator(0.1, 100);
  scaled["load_factor"] = 3;
  EXPECT_EQ(arrivals({{"generators", {scaled}}}), arrivals({{"generators", {poisson_generator(0.1 * 3, 100)}}}));
  // MMPP: every state's rate, the stays kept.
  const auto mmpp = [](double low, double high) {
    nlohmann::json g = poisson_generator(1, 100);
    g["arrival"] = {
        {"process", "mmpp"},
        {"states", {{{"rate_per_s", low}, {"mean_stay", "100s"}}, {{"rate_per_s", high}, {"mean_stay", "20s"}}}}};
    return g;
  };
  nlohmann::json bursty = mmpp(0.05, 1);
  bursty["load_factor"] = 2;
  EXPECT_EQ(arrivals({{"generators", {bursty}}}), arrivals({{"generators", {mmpp(0.05 * 2, 1 * 2)}}}));
  // Workload-level and generator factors multiply: 2 x 1.5 is 3.
  scaled["load_factor"] = 1.5;
  EXPECT_EQ(arrivals({{"load_factor", 2}, {"generators", {scaled}}}),
            arrivals({{"generators", {poisson_generator(0.1 * 3, 100)}}}));
}

TEST(ArrivalScaling, ArrivalsPushedPastTheEndOfTimeNeverComeFromAnyStart) {
  // Gaps of about 1 s times 1e18: beyond the 292 years (9.2e9 s) int64 nanoseconds hold
  // unless a gap is below 9.2 ns (a chance of 1e-8), so the offsets saturate at kTimeNever.
  // Such arrivals never come (as those past `until` do), from start 0 as from any other start;
  // none arrives at kTimeNever ("never").
  const auto scaled_away = [](nlohmann::json arrival, const std::string& start) {
    nlohmann::json g = poisson_generator(1, 3, start);
    g["arrival"] = std::move(arrival);
    g["time_scale"] = 1e18;
    return arrivals({{"generators", {g}}});
  };
  const nlohmann::json processes[] = {
      {{"process", "poisson"}, {"rate_per_s", 1}},
      {{"process", "diurnal"}, {"rate_per_s", 1}, {"amplitude", 0.5}, {"period", "1d"}},
      {{"process", "mmpp"},
       {"states", {{{"rate_per_s", 1}, {"mean_stay", "10s"}}, {{"rate_per_s", 2}, {"mean_stay", "10s"}}}}}};
  for (const nlohmann::json& process : processes) {
    for (const std::string start : {"0s", "0.000000001s", "10s"}) {
      EXPECT_EQ(scaled_away(process, start), std::vector<SimTime>{}) << process.dump() << " start " << start;
    }
  }
  // Unscaled, a rate of 1e-15/s puts the first arrival about 3e7 years out: never too.
  EXPECT_EQ(arrivals({{"generators", {poisson_generator(1e-15, 3)}}}), std::vector<SimTime>{});
}

TEST(ArrivalScaling, TraceOffsetsFromTheFirstArrivalAreScaledExactly) {
  // An openb pod list whose first pod is created at 1000 s.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sharesim-arrival-scaling-test";
  std::filesystem::create_directories(dir);
  {
    std::ofstream csv(dir / "pods.csv");
    csv << "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
           "scheduled_time\n";
    for (int i = 0; i < 5; ++i) {
      const int created = 1000 + i * i * 7 + i;  // 1000, 1008, 1030, 1066, 1116
      csv << "p" << i << ",1000,1024,1,1000,,LS,Running," << created << "," << created + 50 << "," << created << "\n";
    }
  }
  const auto trace_arrivals = [&](nlohmann::json workload) {
    BuiltWorkload w(workload, 1, dir.string());
    std::vector<SimTime> t;
    for (const JobSpec& job : w.drain()) {
      t.push_back(job.arrival);
      EXPECT_EQ(job.work, 50 * kSecond);  // durations are never scaled
    }
    return t;
  };
  const nlohmann::json trace = {{"format", "openb"}, {"path", "pods.csv"}};
  const std::vector<SimTime> base = trace_arrivals({{"trace", trace}});
  ASSERT_EQ(base.size(), 5u);
  // time_scale 0.5 and load_factor 4: offsets x 0.5 / 4 = x 0.125, from 1000 s.
  nlohmann::json scaled = trace;
  scaled["time_scale"] = 0.5;
  const std::vector<SimTime> moved = trace_arrivals({{"load_factor", 4}, {"trace", scaled}});
  const std::vector<SimTime> expected = {1000 * kSecond, 1001 * kSecond, 1003750 * kMillisecond, 1008250 * kMillisecond,
                                         1014500 * kMillisecond};
  EXPECT_EQ(moved, expected);
  std::filesystem::remove_all(dir);
}

TEST(ArrivalScaling, BadFactorsAreLocatedErrors) {
  nlohmann::json huge = poisson_generator(0.1, 10);
  huge["time_scale"] = 1e200;
  EXPECT_EQ(input_error_of([&] {
              BuiltWorkload w(nlohmann::json{{"time_scale", 1e200}, {"generators", {huge}}});
            }),
            "scenario.json: /workload/generators/0/time_scale: expected a number that, times the workload's "
            "time_scale, stays a finite number > 0, found 1e+200 (product inf)");
  nlohmann::json resample = poisson_generator(0.1, 10);
  resample.erase("duration");
  resample["resample"] = {{"format", "openb"}, {"path", "openb_small.csv"}, {"load_factor", 2}};
  EXPECT_NE(input_error_of([&] {
              BuiltWorkload w(nlohmann::json{{"generators", {resample}}});
            }).find("/workload/generators/0/resample/load_factor: \"load_factor\" scales a trace's arrivals"),
            std::string::npos);
}

}  // namespace
}  // namespace sharesim::testing
