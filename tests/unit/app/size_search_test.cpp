// `sharesim size` against Erlang C: a pool of 1-GPU nodes, exclusive, Poisson arrivals and
// exponential work is the M/M/c queue, so the smallest c whose mean wait is at most a target
// has a closed-form answer (queueing_validation_test.cpp has the formula and its sources).
// lambda = 0.08/s, mean service 100 s (a = 8 Erlangs): E[Wq] is 65.3 s at c = 9, 20.5 s at
// c = 10, 8.17 s at c = 11 and 3.50 s at c = 12. A target of 12 s lies between c = 10 and 11
// with a 40-70% margin on either side, far beyond the spread of the mean over 5 seeds of
// 3000 jobs (a few percent), so the search must answer exactly 11.
#include "apps/size_search.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/input/input_error.h"

namespace sharesim {
namespace {

namespace fs = std::filesystem;

// Each test's scenarios and runs in a scratch directory of its own, removed around it.
class SizeSearch : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() / ("sharesim-size-" + test + "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes the scenario `text` as `file` and returns a request to size its `pool` against
  // `targets` over `seeds`, the runs going to out-FILE.
  SizeRequest request(const std::string& file, const std::string& text, const std::string& pool,
                      const std::vector<std::string>& targets, const std::vector<std::uint64_t>& seeds) {
    std::ofstream(dir_ / file) << text;
    SizeRequest made;
    made.scenario_path = (dir_ / file).string();
    made.pool = pool;
    for (const std::string& target : targets) made.targets.push_back(parse_size_target(target));
    made.seeds = seeds;
    made.output_dir = (dir_ / ("out-" + file)).string();
    return made;
  }

  fs::path dir_;
};

double erlang_c_mean_wait(int c, double lambda, double mu) {
  const double a = lambda / mu;
  double term = 1, sum = 0;
  for (int k = 0; k < c; ++k) {
    sum += term;
    term *= a / (k + 1);
  }
  const double last = term / (1 - a / c);
  return last / (sum + last) / (c * mu - lambda);
}

// The smallest c with E[Wq] <= target (a stable queue: c > a).
int erlang_c_servers(double lambda, double mu, double target) {
  int c = static_cast<int>(lambda / mu) + 1;
  while (erlang_c_mean_wait(c, lambda, mu) > target) ++c;
  return c;
}

TEST_F(SizeSearch, MatchesErlangC) {
  const double lambda = 0.08, mu = 0.01, target = 12;
  const int analytic = erlang_c_servers(lambda, mu, target);
  ASSERT_EQ(analytic, 11);

  SizeRequest request = this->request("mmc.json", R"({"name": "mmc", "seed": 1,
    "cluster": {"node_pools": [{"name": "gpus", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 1,
      "cpu_milli": 64000, "memory_mib": 262144}]},
    "workload": {"generators": [{"kind": "training", "count": 3000,
      "arrival": {"process": "poisson", "rate_per_s": 0.08},
      "duration": {"dist": "exponential", "mean_s": 100}, "request": {"gpus": 1}}]}})",
                                      "gpus", {"metrics.jobs.wait_s.mean<=12"}, {1, 2, 3, 4, 5});
  request.threads = 2;
  const std::vector<SizeAnswer> answers = size_pool(request, GpuCatalog::builtin());
  ASSERT_EQ(answers.size(), 1u);
  const SizeAnswer& answer = answers.front();
  RecordProperty("size_nodes", std::to_string(answer.nodes));
  RecordProperty("erlang_c_servers", std::to_string(analytic));
  RecordProperty("mean_wait_at_size_s", std::to_string(answer.at_size.stats[0].mean));
  RecordProperty("mean_wait_one_fewer_s", std::to_string(answer.one_fewer->stats[0].mean));
  EXPECT_EQ(answer.nodes, analytic);
  EXPECT_EQ(answer.gpus, analytic);
  // The simulated mean waits at the answer and one fewer are near the formula's.
  EXPECT_NEAR(answer.at_size.stats[0].mean, erlang_c_mean_wait(11, lambda, mu),
              0.35 * erlang_c_mean_wait(11, lambda, mu));
  EXPECT_NEAR(answer.one_fewer->stats[0].mean, erlang_c_mean_wait(10, lambda, mu),
              0.35 * erlang_c_mean_wait(10, lambda, mu));
  // Gallop 1, 2, 4, 8, 16, then bisect 12, 10, 11.
  EXPECT_EQ(answer.tried, (std::vector<std::int64_t>{1, 2, 4, 8, 16, 12, 10, 11}));
  const nlohmann::ordered_json json = size_json(request, answers);
  EXPECT_EQ(json["pool"], "gpus");
  EXPECT_EQ(json["nodes"], 11);
  EXPECT_EQ(json["one_fewer"]["nodes"], 10);
  EXPECT_FALSE(json["one_fewer"]["meets"].get<bool>());

  // Per policy: the same answer for exclusive, and a table line.
  request.variants = {"exclusive", "fractional"};
  const std::vector<SizeAnswer> per_policy = size_pool(request, GpuCatalog::builtin());
  ASSERT_EQ(per_policy.size(), 2u);
  EXPECT_EQ(per_policy[0].nodes, 11);
  const std::string text = size_text(request, per_policy);
  EXPECT_NE(text.find("GPUs needed: exclusive 11, fractional " + std::to_string(per_policy[1].gpus)), std::string::npos)
      << text;
}

TEST_F(SizeSearch, TargetsAreParsedOrRejected) {
  const SizeTarget target = parse_size_target("metrics.jobs.slo_attainment>=0.99");
  EXPECT_FALSE(target.at_most);
  EXPECT_EQ(target.metric, "metrics.jobs.slo_attainment");
  EXPECT_DOUBLE_EQ(target.bound, 0.99);
  EXPECT_TRUE(target.met_by(0.995));
  EXPECT_FALSE(target.met_by(0.98));
  EXPECT_THROW(parse_size_target("metrics.jobs.wait_s.p95<600"), InputError);
  EXPECT_THROW(parse_size_target("<=5"), InputError);
  EXPECT_THROW(parse_size_target("a<=x"), InputError);
}

TEST_F(SizeSearch, APolicyNoSizeSatisfiesIsAnsweredAsSuchAndTheOthersAreStillSized) {
  // Three 1-GPU jobs of 12900 MiB on 1-GPU H100 nodes: exclusive needs 3 nodes; on 1g.10gb MIG
  // instances (9984 MiB) every pod dies of OOM, at any size (a run's result, not a capacity
  // error: the instance's memory is no request the scheduler checks).
  SizeRequest request = this->request("s.json", R"({"name": "s", "seed": 1, "until": "1h",
    "cluster": {"node_pools": [{"name": "gpus", "nodes": 1, "gpu": "H100-80GB", "gpus_per_node": 1,
      "cpu_milli": 64000, "memory_mib": 262144}]},
    "workload": {"jobs": [{"name": "j", "replicas": 3, "duration": "2h",
                           "request": {"gpus": 1, "demand": {"mem_mib": 12900}}}]},
    "compare": {"variants": {"mig7": {"policy": "mig", "strategy": "single", "layout": "all-1g.10gb"}}}})",
                                      "gpus", {"metrics.jobs.never_started<=0", "metrics.jobs.failed<=0"}, {1, 2});
  request.variants = {"exclusive", "mig7"};
  request.max_nodes = 4;
  const std::vector<SizeAnswer> answers = size_pool(request, GpuCatalog::builtin());
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_TRUE(answers[0].met);
  EXPECT_EQ(answers[0].nodes, 3);
  // Both seeds give the same counts (ci95 0): nothing straddles, although 0 is the bound.
  EXPECT_TRUE(answers[0].straddles.empty());
  EXPECT_FALSE(answers[1].met);
  EXPECT_EQ(answers[1].tried, (std::vector<std::int64_t>{1, 2, 4}));
  EXPECT_EQ(answers[1].at_size.nodes, 4);
  EXPECT_DOUBLE_EQ(answers[1].at_size.stats[1].mean, 3.0);  // failed
  const std::string text = size_text(request, answers);
  EXPECT_NE(text.find("pool gpus under mig7: no size up to 4 nodes meets every target"), std::string::npos) << text;
  EXPECT_NE(text.find("metrics.jobs.failed<=0 mean 3.000 +- 0.000 (missed)"), std::string::npos) << text;
  EXPECT_NE(text.find("GPUs needed: exclusive 3, mig7 none up to 4"), std::string::npos) << text;
  const nlohmann::ordered_json json = size_json(request, answers);
  EXPECT_TRUE(json["met"].get<bool>());
  EXPECT_FALSE(json["variants"][1]["met"].get<bool>());
  EXPECT_TRUE(json["variants"][1]["nodes"].is_null());
  EXPECT_EQ(json["variants"][1]["at_size"]["nodes"], 4);
  EXPECT_TRUE(json["variants"][1]["at_size"]["cannot_hold"].is_null());
}

TEST_F(SizeSearch, ASizeTooSmallForAGangIsNotMetAndTheSearchGoesOn) {
  // A gang of 3 pods of one GPU on 1-GPU nodes, in a scenario of 4 nodes: 1 and 2 nodes could
  // never hold it (a capacity error at each size's load), 3 nodes run it. The search used to
  // stop at 1 node with that error.
  SizeRequest request = this->request("s.json", R"({"name": "s", "seed": 1,
    "cluster": {"node_pools": [{"name": "gpus", "nodes": 4, "gpu": "H100-80GB", "gpus_per_node": 1,
      "cpu_milli": 64000, "memory_mib": 262144}]},
    "workload": {"jobs": [{"name": "gang", "pods": 3, "duration": "1h", "request": {"gpus": 1}}]}})",
                                      "gpus", {"metrics.jobs.completed>=1"}, {1});
  request.max_nodes = 8;
  const std::vector<SizeAnswer> answers = size_pool(request, GpuCatalog::builtin());
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_TRUE(answers[0].met);
  EXPECT_EQ(answers[0].nodes, 3);
  EXPECT_EQ(answers[0].tried, (std::vector<std::int64_t>{1, 2, 4, 3}));
  ASSERT_TRUE(answers[0].one_fewer.has_value());
  EXPECT_FALSE(answers[0].one_fewer->meets);
  EXPECT_NE(answers[0].one_fewer->cannot_hold.find("must run together, but the whole cluster can hold at most 2 of"),
            std::string::npos)
      << answers[0].one_fewer->cannot_hold;
  EXPECT_NE(size_text(request, answers).find("3 nodes (3 GPUs) meet metrics.jobs.completed>=1 (mean 1.000); 2 nodes "
                                             "could never hold the workload"),
            std::string::npos)
      << size_text(request, answers);
  const nlohmann::ordered_json json = size_json(request, answers);
  EXPECT_TRUE(json["at_size"]["cannot_hold"].is_null());
  EXPECT_TRUE(json["one_fewer"]["cannot_hold"].is_string());
  // At --max-nodes too the size is not met: no size up to 2 nodes holds the gang, answered as
  // such with the reason (it used to stop the search, exit 2).
  request.max_nodes = 2;
  const std::vector<SizeAnswer> capped = size_pool(request, GpuCatalog::builtin());
  ASSERT_EQ(capped.size(), 1u);
  EXPECT_FALSE(capped[0].met);
  EXPECT_EQ(capped[0].tried, (std::vector<std::int64_t>{1, 2}));
  EXPECT_NE(capped[0].at_size.cannot_hold.find("can hold at most 2 of"), std::string::npos)
      << capped[0].at_size.cannot_hold;
  EXPECT_NE(size_text(request, capped)
                .find("pool gpus: no size up to 2 nodes could hold the workload (" + request.scenario_path +
                      ": /workload/jobs/0/pods: a job's 3 pods"),
            std::string::npos)
      << size_text(request, capped);
}

TEST_F(SizeSearch, EachVariantIsSizedOnTheClusterItConfigures) {
  // A gang of 5 one-GPU pods; pool "a" has 2 one-GPU nodes, pool "b" (sized) 2-GPU nodes. With
  // 1 node of "b" the cluster has 4 GPUs: too few exclusive, but 16 time-slicing replicas and
  // 4 x 7 MIG instances hold the gang. The loader's gang check used to see the scenario's own
  // (exclusive) sharing under every variant, so timeslice and mig answered 2 nodes, "1 node
  // could never hold the workload ... can hold at most 4".
  SizeRequest request = this->request("s.json", R"({"name": "s", "seed": 1,
    "cluster": {"node_pools": [
      {"name": "a", "nodes": 2, "gpu": "A100-80GB", "gpus_per_node": 1, "cpu_milli": 64000, "memory_mib": 262144},
      {"name": "b", "nodes": 4, "gpu": "A100-80GB", "gpus_per_node": 2, "cpu_milli": 64000, "memory_mib": 262144}]},
    "workload": {"jobs": [{"name": "gang", "pods": 5, "duration": "1h", "request": {"gpus": 1}}]}})",
                                      "b", {"metrics.jobs.completed>=1"}, {1});
  request.variants = {"exclusive", "timeslice", "mig"};
  request.max_nodes = 4;
  const std::vector<SizeAnswer> answers = size_pool(request, GpuCatalog::builtin());
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[0].nodes, 2);
  ASSERT_TRUE(answers[0].one_fewer.has_value());
  EXPECT_NE(answers[0].one_fewer->cannot_hold.find("can hold at most 4"), std::string::npos);
  for (std::size_t v : {1u, 2u}) {
    EXPECT_TRUE(answers[v].met) << answers[v].variant;
    EXPECT_EQ(answers[v].nodes, 1) << answers[v].variant << ": " << size_text(request, answers);
    EXPECT_FALSE(answers[v].one_fewer.has_value());
  }
  // --max-nodes 1: mig is answered at 1 node; the search no longer stops with the exclusive
  // pools' error for it.
  request.variants = {"mig"};
  request.max_nodes = 1;
  const std::vector<SizeAnswer> mig = size_pool(request, GpuCatalog::builtin());
  EXPECT_EQ(mig.at(0).nodes, 1);
}

TEST_F(SizeSearch, EveryVariantIsCheckedBeforeAnyRunAndItsErrorNamesIt) {
  // A mixed-strategy MIG variant advertises MIG resources that no pod asks for, and MIG on a T4
  // does not exist: both used to surface only when that variant's search reached --max-nodes,
  // after every run of the policies before it, without the variant's name (the T4 one at the
  // scenario's own /cluster/node_pools/0/sharing/policy, which holds a valid "exclusive").
  const auto scenario = [](const std::string& gpu) {
    return R"({"name": "s", "seed": 1,
      "cluster": {"node_pools": [{"name": "gpus", "nodes": 2, "gpu": ")" +
           gpu + R"(", "gpus_per_node": 1, "cpu_milli": 64000, "memory_mib": 262144,
        "sharing": {"policy": "exclusive"}}]},
      "workload": {"jobs": [{"name": "j", "replicas": 3, "duration": "1h", "request": {"gpus": 1}}]},
      "compare": {"variants": {"mixedmig": {"policy": "mig", "strategy": "mixed", "layout": "all-2g.20gb"}}}})";
  };
  const auto error = [&](const std::string& file, const std::vector<std::string>& variants) -> std::string {
    SizeRequest request = this->request(file, scenario(file == "t4.json" ? "T4" : "A100-80GB"), "gpus",
                                        {"metrics.jobs.completed>=3"}, {1, 2});
    request.variants = variants;
    request.max_nodes = 8;
    try {
      size_pool(request, GpuCatalog::builtin());
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  };
  const std::string mixed = error("a100.json", {"exclusive", "mixedmig"});
  EXPECT_NE(mixed.find("found \"nvidia.com/gpu\" (sharing variant \"mixedmig\")"), std::string::npos) << mixed;
  EXPECT_FALSE(fs::exists(dir_ / "out-a100.json" / "runs")) << "exclusive ran before mixedmig was checked";
  const std::string t4 = error("t4.json", {"exclusive", "mig"});
  EXPECT_EQ(t4.rfind("--policies: \"mig\": ", 0), 0u) << t4;
  EXPECT_EQ(t4.find("/cluster/node_pools/0/sharing/policy"), std::string::npos) << t4;
  EXPECT_EQ(t4.find("(value from"), std::string::npos) << t4;  // the variant is named, not an override
  EXPECT_FALSE(fs::exists(dir_ / "out-t4.json" / "runs"));
}

TEST_F(SizeSearch, AVariantThatCannotHoldTheWorkloadAtMaxNodesIsAnsweredAsSuchAndTheOthersAreSized) {
  // A gang of 5 pods of 8 GPUs on 8-GPU nodes, at most 4 nodes: exclusive could never hold it
  // (4 pods at once), time-slicing replicas hold it on 2 nodes. The exclusive variant's check at
  // --max-nodes used to stop the whole command (exit 2) with "... can hold at most 4 of them at
  // once (sharing variant "exclusive")", so timeslice got no answer either.
  const std::string text = R"({"name": "s", "seed": 1,
    "cluster": {"node_pools": [{"name": "gpus", "nodes": 8, "gpu": "A100-80GB", "gpus_per_node": 8,
      "cpu_milli": 256000, "memory_mib": 1048576}]},
    "workload": {"jobs": [{"name": "gang", "pods": 5, "duration": "1h", "request": {"gpus": 8}}]},
    "compare": {"variants": {"mixedmig": {"policy": "mig", "strategy": "mixed", "layout": "all-2g.20gb"}}}})";
  SizeRequest request = this->request("s.json", text, "gpus", {"metrics.jobs.completed>=1"}, {1});
  request.variants = {"exclusive", "timeslice"};
  request.max_nodes = 4;
  const std::vector<SizeAnswer> answers = size_pool(request, GpuCatalog::builtin());
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_FALSE(answers[0].met);
  EXPECT_EQ(answers[0].tried, (std::vector<std::int64_t>{1, 2, 4}));
  EXPECT_EQ(answers[0].at_size.nodes, 4);
  EXPECT_NE(answers[0].at_size.cannot_hold.find("/workload/jobs/0/pods: a job's 5 pods must run together, but the "
                                                "whole cluster can hold at most 4 of them at once"),
            std::string::npos)
      << answers[0].at_size.cannot_hold;
  EXPECT_TRUE(answers[1].met);
  EXPECT_EQ(answers[1].nodes, 2);
  const std::string shown = size_text(request, answers);
  EXPECT_NE(shown.find("pool gpus under exclusive: no size up to 4 nodes could hold the workload (" +
                       request.scenario_path + ": /workload/jobs/0/pods: a job's 5 pods"),
            std::string::npos)
      << shown;
  EXPECT_NE(shown.find("pool gpus under timeslice: 2 nodes (16 GPUs) meet"), std::string::npos) << shown;
  EXPECT_NE(shown.find("GPUs needed: exclusive none up to 32, timeslice 16"), std::string::npos) << shown;
  const nlohmann::ordered_json json = size_json(request, answers);
  EXPECT_FALSE(json["variants"][0]["met"].get<bool>());
  EXPECT_TRUE(json["variants"][0]["nodes"].is_null());
  EXPECT_TRUE(json["variants"][0]["at_size"]["cannot_hold"].is_string());
  EXPECT_EQ(json["variants"][1]["nodes"], 2);

  // The same gang as a row of a native trace: the row is checked while the trace is read, and
  // the answer is the same, naming the trace's line and column instead of the scenario's key.
  std::ofstream(dir_ / "gang.csv") << "origin,sequence,kind,submit_s,duration_s,pods,gpus_per_pod,cpu_milli,"
                                      "memory_mib,gpu_product,priority\n"
                                      "gang,0,training,0,3600,5,8,0,0,,0\n";
  SizeRequest traced = this->request("t.json", R"({"name": "t", "seed": 1,
    "cluster": {"node_pools": [{"name": "gpus", "nodes": 8, "gpu": "A100-80GB", "gpus_per_node": 8,
      "cpu_milli": 256000, "memory_mib": 1048576}]},
    "workload": {"trace": {"format": "native", "path": "gang.csv"}}})",
                                     "gpus", {"metrics.jobs.completed>=1"}, {1});
  traced.variants = {"exclusive", "timeslice"};
  traced.max_nodes = 4;
  const std::vector<SizeAnswer> from_trace = size_pool(traced, GpuCatalog::builtin());
  ASSERT_EQ(from_trace.size(), 2u);
  EXPECT_FALSE(from_trace[0].met);
  EXPECT_EQ(from_trace[0].at_size.nodes, 4);
  EXPECT_NE(from_trace[0].at_size.cannot_hold.find((dir_ / "gang.csv").string() +
                                                   ": line 2, column gpus_per_pod: a job's 5 pods"),
            std::string::npos)
      << from_trace[0].at_size.cannot_hold;
  EXPECT_NE(from_trace[0].at_size.cannot_hold.find("can hold at most 4 at once"), std::string::npos)
      << from_trace[0].at_size.cannot_hold;
  EXPECT_TRUE(from_trace[1].met);
  EXPECT_EQ(from_trace[1].nodes, 2);

  // A misconfigured variant beside it is still an error naming that variant, before any run.
  request.variants = {"exclusive", "mixedmig"};
  request.output_dir = (dir_ / "out-mixed").string();
  try {
    size_pool(request, GpuCatalog::builtin());
    ADD_FAILURE() << "mixedmig's layout, whose resources no pod asks for, was not refused";
  } catch (const CapacityError& e) {
    ADD_FAILURE() << "a configuration error taken for a capacity one: " << e.what();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("(sharing variant \"mixedmig\")"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir_ / "out-mixed" / "runs"));
}

}  // namespace
}  // namespace sharesim
