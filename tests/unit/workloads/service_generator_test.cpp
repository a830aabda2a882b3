// Generators of kind inference and notebook (workloads/service_generator.h): how many services
// and jobs, their names, parameters drawn within their laws, determinism (same seed, same
// services; one generator's count or laws never move another's draws) and located errors.
#include <gtest/gtest.h>

#include "tests/unit/workloads/workload_test_helpers.h"

namespace sharesim::testing {
namespace {

nlohmann::json inference_generator(std::uint64_t count, std::uint32_t replicas = 1) {
  nlohmann::json generator = nlohmann::json::parse(
      R"({"name": "svc", "kind": "inference", "arrival": {"process": "poisson", "rate_per_s": 0.01},
    "request": {"gpus": 1, "demand": {"sm": 0.5, "bw": 0.3}},
    "mem_mib": {"dist": "choice", "values": [8192, 16384, 40960], "weights": [2, 1, 1]},
    "requests": {"rate_per_s": {"dist": "lognormal", "mean": 2, "cv": 0.5},
                 "work": {"dist": "exponential", "mean_s": 0.04},
                 "slo_s": {"dist": "uniform", "min": 0.1, "max": 0.5}},
    "lifetime_s": {"dist": "exponential", "mean": 3600}})");
  generator["count"] = count;
  generator["replicas"] = replicas;
  return generator;
}

nlohmann::json notebook_generator(std::uint64_t count) {
  return {{"name", "nb"},
          {"kind", "notebook"},
          {"count", count},
          {"arrival", {{"process", "poisson"}, {"rate_per_s", 0.002}}},
          {"request", {{"gpus", 1}, {"demand", {{"sm", 0.6}, {"bw", 0.3}, {"mem_mib", 8192}}}}},
          {"active", {{"dist", "exponential"}, {"mean_s", 20}}},
          {"idle", {{"dist", "exponential"}, {"mean_s", 180}}},
          {"session_s", {{"dist", "uniform"}, {"min", 1800}, {"max", 7200}}}};
}

// What one service looks like once its jobs were drawn.
struct Drawn {
  std::string origin;
  SimTime arrival = 0;
  std::uint32_t jobs = 0;
  std::int64_t mem_mib = 0;
  SimTime slo = 0;
  bool operator==(const Drawn&) const = default;
};

std::vector<Drawn> services(const nlohmann::json& workload, std::uint64_t seed = 1, std::size_t source = 0) {
  BuiltWorkload w(workload, seed);
  std::vector<Drawn> drawn;
  for (const JobSpec& job : w.drain(source)) {
    const JobOrigin& origin = w.origins[job.origin];
    if (drawn.empty() || drawn.back().origin != origin.name) {
      drawn.push_back({origin.name, job.arrival, 0, w.shape(job).demand.mem_mib, origin.slo});
      EXPECT_TRUE(origin.behaviour != nullptr);
    }
    EXPECT_EQ(job.arrival, drawn.back().arrival);  // a service's replicas arrive together
    EXPECT_EQ(job.sequence, drawn.back().jobs);
    ++drawn.back().jobs;
  }
  return drawn;
}

TEST(ServiceGenerator, CountServicesEachAnOriginWithItsReplicas) {
  const std::vector<Drawn> drawn = services({{"generators", {inference_generator(7, 3)}}});
  ASSERT_EQ(drawn.size(), 7u);
  for (std::size_t k = 0; k < drawn.size(); ++k) {
    EXPECT_EQ(drawn[k].origin, "svc-" + std::to_string(k));
    EXPECT_EQ(drawn[k].jobs, 3u);
    EXPECT_TRUE(drawn[k].mem_mib == 8192 || drawn[k].mem_mib == 16384 || drawn[k].mem_mib == 40960);
    EXPECT_GE(drawn[k].slo, 100 * kMillisecond);
    EXPECT_LE(drawn[k].slo, 500 * kMillisecond);
    if (k > 0) {
      EXPECT_GE(drawn[k].arrival, drawn[k - 1].arrival);
    }
  }
  BuiltWorkload w(nlohmann::json{{"generators", {inference_generator(7, 3)}}});
  EXPECT_EQ(w.sources[0]->expected_jobs(), 21u);
}

TEST(ServiceGenerator, SameSeedSameServicesOtherSeedOthers) {
  const nlohmann::json workload = {{"generators", {inference_generator(20)}}};
  EXPECT_EQ(services(workload, 5), services(workload, 5));
  EXPECT_NE(services(workload, 5), services(workload, 6));
}

TEST(ServiceGenerator, ACountSweepKeepsTheFirstServicesAndOtherGeneratorsKeepTheirs) {
  const std::vector<Drawn> ten = services({{"generators", {inference_generator(10)}}});
  const std::vector<Drawn> four = services({{"generators", {inference_generator(4)}}});
  ASSERT_EQ(four.size(), 4u);
  EXPECT_EQ(four, std::vector<Drawn>(ten.begin(), ten.begin() + 4));
  // A notebook generator beside it, or a different SLO law, moves no other draw.
  EXPECT_EQ(services({{"generators", {inference_generator(10), notebook_generator(5)}}}), ten);
  nlohmann::json other_slo = inference_generator(10);
  other_slo["requests"]["slo_s"] = {{"dist", "constant"}, {"value", 0.2}};
  const std::vector<Drawn> constant_slo = services({{"generators", {other_slo}}});
  for (std::size_t k = 0; k < ten.size(); ++k) {
    EXPECT_EQ(constant_slo[k].arrival, ten[k].arrival);
    EXPECT_EQ(constant_slo[k].mem_mib, ten[k].mem_mib);
    EXPECT_EQ(constant_slo[k].slo, 200 * kMillisecond);
  }
}

TEST(ServiceGenerator, NotebooksWithFixedParametersKeepTheRequestsMemory) {
  nlohmann::json notebooks = notebook_generator(6);
  notebooks.erase("session_s");
  notebooks["session"] = "2h";
  notebooks["replicas"] = 2;
  const std::vector<Drawn> drawn = services({{"generators", {notebooks}}});
  ASSERT_EQ(drawn.size(), 6u);
  for (const Drawn& d : drawn) {
    EXPECT_EQ(d.jobs, 2u);
    EXPECT_EQ(d.mem_mib, 8192);
    EXPECT_EQ(d.slo, 0);
  }
  EXPECT_EQ(drawn[5].origin, "nb-5");
}

TEST(ServiceGenerator, UntilBoundsTheServicesLikeAnyGenerator) {
  nlohmann::json bounded = inference_generator(1000);
  bounded.erase("count");
  bounded["until"] = "1000s";  // rate 0.01/s: about 10 services
  const std::vector<Drawn> drawn = services({{"generators", {bounded}}});
  EXPECT_GT(drawn.size(), 0u);
  EXPECT_LT(drawn.size(), 40u);
  for (const Drawn& d : drawn) EXPECT_LE(d.arrival, 1000 * kSecond);
}

TEST(ServiceGenerator, ServicesPushedPastTheEndOfTimeNeverCome) {
  // rate 0.01/s: a first gap of about 100 s, times 1e18 far beyond the 292 years int64
  // nanoseconds hold; such a service never comes, from start 0 as from any other.
  for (const std::string start : {"0s", "5s"}) {
    nlohmann::json far = inference_generator(3, 2);
    far["time_scale"] = 1e18;
    far["start"] = start;
    EXPECT_EQ(services({{"generators", {far}}}).size(), 0u) << "start " << start;
  }
}

TEST(ServiceGenerator, BadKeysAreLocatedErrors) {
  const auto error = [](const nlohmann::json& generator, const nlohmann::json& jobs = nlohmann::json::array()) {
    return input_error_of([&] { BuiltWorkload w(nlohmann::json{{"generators", {generator}}, {"jobs", jobs}}); });
  };
  nlohmann::json both = inference_generator(3);
  both["requests"]["slo"] = "250ms";
  EXPECT_EQ(error(both),
            "scenario.json: /workload/generators/0/requests/slo_s: give \"slo\" (the same for every service) or "
            "\"slo_s\" (drawn per service), not both");
  nlohmann::json no_stream = inference_generator(3);
  no_stream["requests"].erase("rate_per_s");
  EXPECT_EQ(error(no_stream),
            "scenario.json: /workload/generators/0/requests: missing required key \"arrival\" (or "
            "\"rate_per_s\", drawn per service)");
  nlohmann::json no_lifetime = inference_generator(3);
  no_lifetime.erase("lifetime_s");
  EXPECT_NE(error(no_lifetime).find("/workload/generators/0: inference services without \"lifetime\""),
            std::string::npos);
  nlohmann::json no_session = notebook_generator(3);
  no_session.erase("session_s");
  EXPECT_EQ(error(no_session),
            "scenario.json: /workload/generators/0: missing required key \"session\" (or "
            "\"session_s\", drawn per notebook)");
  nlohmann::json upside_down = notebook_generator(3);
  upside_down["mem_mib"] = {{"dist", "uniform"}, {"min", 9000}, {"max", 10}};
  EXPECT_EQ(error(upside_down),
            "scenario.json: /workload/generators/0/mem_mib/max: expected a max >= min (9000), "
            "found 10");
  nlohmann::json weights = notebook_generator(3);
  weights["mem_mib"] = {{"dist", "choice"}, {"values", {1, 2}}, {"weights", {1}}};
  EXPECT_EQ(error(weights),
            "scenario.json: /workload/generators/0/mem_mib/weights: expected one weight per value (2), found 1");
  // A job list entry named like one of the generator's services.
  const nlohmann::json clash = nlohmann::json::parse(R"([{"name": "nb-1", "kind": "notebook",
      "request": {"gpus": 1}, "active": {"dist": "constant", "mean_s": 1},
      "idle": {"dist": "constant", "mean_s": 1}, "session": "1h"}])");
  EXPECT_NE(error(notebook_generator(3), clash).find("/workload/generators/0/name: this generator names its services"),
            std::string::npos);
}

}  // namespace
}  // namespace sharesim::testing
