// A scenario whose jobs name a workload profile (request.profile, docs/profiles.md) runs with
// the profile's fitted demand: under MPS the co-located jobs finish exactly when jobs with the
// same demand written out do, and not when jobs with the default demand do; Gavel profiles run
// at the interference model's rates.
#include <gtest/gtest.h>

#include <string>

#include "run_helpers.h"
#include "workloads/profiles/workload_profile.h"

namespace sharesim {
namespace {

using testing::run_text;

std::string two_jobs(const std::string& request) {
  return R"({"name": "t", "seed": 3, "cluster": {"node_pools": [{"name": "p", "nodes": 1, "gpu": "A100-80GB",
    "gpus_per_node": 1, "cpu_milli": 64000, "memory_mib": 262144,
    "sharing": {"policy": "mps", "replicas": 2, "active_thread_percentage": 100}}]},
    "workload": {"jobs": [{"name": "j", "replicas": 2, "duration": "1h", "request": )" +
         request + "}]}}";
}

std::vector<SimTime> end_times(const std::string& request) {
  const auto run = run_text(two_jobs(request));
  std::vector<SimTime> ends;
  for (const JobRecord& job : run->runtime().jobs()) {
    EXPECT_EQ(job.state, JobState::Completed);
    ends.push_back(job.end);
  }
  return ends;
}

TEST(WorkloadProfileRun, JobsRunWithTheProfilesFittedDemand) {
  const WorkloadProfile* profile = ProfileLibrary::builtin().find("bert-train-b8");
  ASSERT_NE(profile, nullptr);
  const std::vector<SimTime> with_profile = end_times(R"({"gpus": 1, "profile": "bert-train-b8"})");
  const std::vector<SimTime> written_out = end_times(R"({"gpus": 1, "demand": {"sm": )" + std::to_string(profile->sm) +
                                                     R"(, "bw": )" + std::to_string(profile->bw) + "}}");
  const std::vector<SimTime> defaults = end_times(R"({"gpus": 1})");
  ASSERT_EQ(with_profile.size(), 2u);
  // std::to_string keeps 6 decimals, enough for the profile's 4.
  EXPECT_EQ(with_profile, written_out);
  EXPECT_NE(with_profile, defaults);
  // Co-located under MPS: both slower than alone (sm + bw of two copies exceed the GPU).
  EXPECT_GT(time_to_seconds(with_profile[0]), 3600.0);
}

TEST(WorkloadProfileRun, GavelProfilesUnderMpsRunAtTheInterferenceModelsRates) {
  // Two replicas of a Gavel profile (fitted interference parameters) on one A100 under MPS: no
  // pair table for A100, so each runs at 1 / (1 + s . p) of its alone speed (docs/models.md,
  // "Concurrent sharing: asymmetric interference") for the whole hour of work.
  const WorkloadProfile* profile = ProfileLibrary::builtin().find("resnet18-train-b64");
  ASSERT_NE(profile, nullptr);
  ASSERT_TRUE(profile->interference.has_value());
  const double rate = 1.0 / (1.0 + interference_term(*profile->interference, *profile->interference));
  const std::vector<SimTime> ends = end_times(R"({"gpus": 1, "profile": "resnet18-train-b64"})");
  ASSERT_EQ(ends.size(), 2u);
  for (SimTime end : ends) EXPECT_NEAR(time_to_seconds(end), 3600.0 / rate, 1e-3);
}

}  // namespace
}  // namespace sharesim

namespace sharesim {
namespace {

std::string one_service(const std::string& request, const std::string& requests) {
  return testing::cluster_scenario(1, 1,
                                   R"({"jobs": [{"name": "svc", "kind": "inference", "request": )" + request +
                                       R"(, "requests": )" + requests + "}]}",
                                   R"("until": "10h", )", "H100-80GB");
}

TEST(WorkloadProfileRun, PublishedProfileGivesTheRequestWorkWhenWorkIsLeftOut) {
  // docs/profiles.md "Inference profiles": without requests.work, every request's standalone
  // work is the profile's published batch-1 request time.
  const WorkloadProfile* profile = ProfileLibrary::builtin().find("sd15-infer-b1");
  ASSERT_NE(profile, nullptr);
  ASSERT_TRUE(profile->published());
  const auto run = testing::run_text(one_service(R"({"gpus": 1, "profile": "sd15-infer-b1"})",
                                                 R"({"arrival": {"process": "poisson", "rate_per_s": 0.001}})"));
  ASSERT_EQ(run->metrics().services.size(), 1u);
  const ServiceMetrics& service = run->metrics().services[0];
  ASSERT_GT(service.latency_s.count, 10u);
  // Alone on an exclusive GPU and almost never queued: the median request takes exactly it.
  EXPECT_NEAR(service.latency_s.p50, profile->serving->request_s, 1e-9);
  EXPECT_NEAR(service.slowdown.p50, 1.0, 1e-9);
}

TEST(WorkloadProfileRun, LeavingOutWorkNeedsAPublishedProfile) {
  const std::string no_work = R"({"arrival": {"process": "poisson", "rate_per_s": 1}})";
  const auto error_of = [](const std::string& text) {
    try {
      testing::run_text(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(one_service(R"({"gpus": 1})", no_work)),
            "<test>: /workload/jobs/0/requests: expected \"work\" (the standalone GPU work of one request), found "
            "none; it may be left out only when request.profile names a profile with published serving "
            "measurements (sharesim profiles list), and this request names no profile");
  EXPECT_NE(error_of(one_service(R"({"gpus": 1, "profile": "bert-train-b8"})", no_work))
                .find("and \"bert-train-b8\" has none"),
            std::string::npos);
}

}  // namespace
}  // namespace sharesim
