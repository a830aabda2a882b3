// Workload profiles (docs/profiles.md): the fit recovers known demands, the reported errors
// are what an independent recomputation gives, the real data yields finite errors and the
// built-in files, and a scenario request takes its demand from a profile.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "policies/contention/contention_model.h"
#include "policies/contention/interference_model.h"
#include "policies/policy_registry.h"
#include "sim/cluster/gpu_catalog.h"
#include "workload_test_helpers.h"
#include "workloads/profiles/interference_validation.h"
#include "workloads/profiles/profile_fit.h"
#include "workloads/profiles/workload_profile.h"
#include "workloads/workload_context.h"

namespace sharesim {
namespace {

using testing::input_error_of;
using testing::kSharedData;

std::array<double, 2> pair_rates(FitDemand a, FitDemand b) {
  const std::array<ContentionTask, 2> tasks{ContentionTask{a.sm, a.bw, 1.0, 1.0}, ContentionTask{b.sm, b.bw, 1.0, 1.0}};
  std::array<double, 2> rates{};
  solve_contention(tasks, rates);
  return rates;
}

// A100-40GB MIG slices other than 7g.40gb, written out again here (`nvidia-smi mig -lgip` on
// A100-SXM4-40GB: instance SMs of the GPU's 108, memory in eighths) rather than taken from the
// library.
struct Slice {
  const char* name;
  double f_sm, f_bw;
};
const std::array<Slice, 4> kSlices{{{"4g.20gb", 56.0 / 108, 4.0 / 8},
                                    {"3g.20gb", 42.0 / 108, 4.0 / 8},
                                    {"2g.10gb", 28.0 / 108, 2.0 / 8},
                                    {"1g.5gb", 14.0 / 108, 1.0 / 8}}};
const Slice k7g{"7g.40gb", 98.0 / 108, 1.0};  // MISO's reference: speeds are relative to it

// Deterministic noise in [-amplitude, amplitude] (a fixed linear congruential sequence, so the
// test does not depend on a standard library's distributions).
class Noise {
 public:
  explicit Noise(double amplitude) : amplitude_(amplitude) {}
  double next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(state_ >> 11) / 9007199254740992.0;  // [0, 1)
    return amplitude_ * (2 * u - 1);
  }

 private:
  double amplitude_;
  std::uint64_t state_ = 12345;
};

std::vector<SliceObservation> synthetic_slices(FitDemand truth, Noise* noise) {
  std::vector<SliceObservation> out;
  for (const Slice& s : kSlices) {
    double speed = std::min({1.0, s.f_sm / truth.sm, s.f_bw / truth.bw});
    if (noise) speed *= 1 + noise->next();
    out.push_back({s.f_sm, s.f_bw, speed});
  }
  return out;
}

TEST(WorkloadProfileFit, PartitionSpeedIsTheContentionModelWithOneTask) {
  // One task on a partition with fractions (f_sm, f_bw) = the contention model on the whole
  // GPU with its demand scaled by 1/f: rate = min(1, f_sm/sm, f_bw/bw).
  for (const FitDemand d : {FitDemand{1.0, 0.5}, FitDemand{0.3, 0.9}, FitDemand{0.7, 0.7}, FitDemand{0.05, 0.02}}) {
    for (const Slice& s : kSlices) {
      const std::array<ContentionTask, 1> task{ContentionTask{d.sm / s.f_sm, d.bw / s.f_bw, 1e9, 1.0}};
      std::array<double, 1> rate{};
      solve_contention(task, rate);
      EXPECT_NEAR(partition_speed(d, s.f_sm, s.f_bw), rate[0], 1e-12) << s.name << " sm " << d.sm << " bw " << d.bw;
    }
  }
}

TEST(WorkloadProfileFit, RecoversKnownDemandFromExactSliceSpeeds) {
  // (0.7, 0.7): 3g.20gb is SM-bound and the other slices bandwidth-bound, so both are identified.
  const FitDemand truth{0.7, 0.7};
  const std::vector<SliceObservation> obs = synthetic_slices(truth, nullptr);
  const FitDemand fit = fit_slices(obs);
  EXPECT_NEAR(fit.sm, truth.sm, 1e-4);
  EXPECT_NEAR(fit.bw, truth.bw, 1e-4);
  EXPECT_LT(slice_cost(fit, obs), 1e-10);
  // An SM-bound job on every slice: sm is identified, bw only bounded (any bw that keeps it
  // SM-bound fits); the fitted speeds still match exactly.
  const FitDemand sm_bound{0.9, 0.2};
  const std::vector<SliceObservation> obs2 = synthetic_slices(sm_bound, nullptr);
  const FitDemand fit2 = fit_slices(obs2);
  EXPECT_NEAR(fit2.sm, sm_bound.sm, 1e-4);
  EXPECT_LT(slice_cost(fit2, obs2), 1e-10);
}

TEST(WorkloadProfileFit, RecoversKnownDemandFromNoisySliceSpeeds) {
  Noise noise(0.02);  // +-2 % per measurement
  const FitDemand truth{0.7, 0.7};
  const std::vector<SliceObservation> obs = synthetic_slices(truth, &noise);
  const FitDemand fit = fit_slices(obs);
  EXPECT_NEAR(fit.sm, truth.sm, 0.05);
  EXPECT_NEAR(fit.bw, truth.bw, 0.05);
  // The fit is a least-squares minimum: no worse than the truth itself.
  EXPECT_LE(slice_cost(fit, obs), slice_cost(truth, obs) + 1e-12);
}

TEST(WorkloadProfileFit, RecoversKnownDemandFromPairSpeeds) {
  // Partners heavy on one resource each, so each pair speed pins one component.
  const FitDemand truth{0.6, 0.4};
  const std::vector<FitDemand> partners{{1.0, 0.1}, {0.1, 1.0}, {0.8, 0.8}, {0.5, 0.3}};
  for (const double amplitude : {0.0, 0.02}) {
    Noise noise(amplitude);
    std::vector<PairObservation> obs;
    for (const FitDemand& p : partners) obs.push_back({p, false, pair_rates(truth, p)[0] * (1 + noise.next())});
    obs.push_back({FitDemand{}, true, pair_rates(truth, truth)[0] * (1 + noise.next())});
    const FitDemand fit = fit_pairs(obs, pair_rates);
    const double tolerance = amplitude == 0 ? 1e-4 : 0.05;
    EXPECT_NEAR(fit.sm, truth.sm, tolerance) << "noise " << amplitude;
    EXPECT_NEAR(fit.bw, truth.bw, tolerance) << "noise " << amplitude;
    EXPECT_LE(pair_cost(fit, obs, pair_rates), pair_cost(truth, obs, pair_rates) + 1e-12);
  }
}

TEST(WorkloadProfileFit, AlternatingFitRecoversSyntheticPairTables) {
  // Four Gavel-like jobs with known demands; every pair measured (isolated throughput 10/s).
  const std::vector<std::pair<std::string, FitDemand>> truth{
      {"a", {1.0, 0.1}}, {"b", {0.1, 1.0}}, {"c", {0.6, 0.4}}, {"d", {0.5, 0.8}}};
  for (const double amplitude : {0.0, 0.02}) {
    Noise noise(amplitude);
    std::vector<WorkloadProfile> profiles;
    for (const auto& [name, demand] : truth) {
      WorkloadProfile p;
      p.name = name;
      p.isolated_throughput[kGavelFitGpu] = 10;
      profiles.push_back(p);
    }
    // One measurement per unordered pair, entered in both jobs' tables (as Gavel's file has it).
    for (std::size_t i = 0; i < truth.size(); ++i) {
      for (std::size_t j = i; j < truth.size(); ++j) {
        const std::array<double, 2> rates = pair_rates(truth[i].second, truth[j].second);
        const double own = 10 * rates[0] * (1 + noise.next()),
                     other = i == j ? own : 10 * rates[1] * (1 + noise.next());
        profiles[i].pair_throughput[kGavelFitGpu][truth[j].first] = {own, other};
        profiles[j].pair_throughput[kGavelFitGpu][truth[i].first] = {other, own};
      }
    }
    fit_profiles(profiles, pair_rates);
    // Pair speeds cannot tell SMs from bandwidth (the model is symmetric in the two when no
    // task is capped): the demands are recovered up to swapping sm and bw for every job at once.
    double direct = 0, swapped = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) {
      const WorkloadProfile& p = profiles[i];
      EXPECT_EQ(p.fit.data, "gavel");
      EXPECT_EQ(p.fit.measurements, 4);
      EXPECT_LT(p.fit.rms_rel_error, amplitude == 0 ? 1e-3 : 0.05) << p.name << " sm " << p.sm << " bw " << p.bw;
      direct = std::max({direct, std::abs(p.sm - truth[i].second.sm), std::abs(p.bw - truth[i].second.bw)});
      swapped = std::max({swapped, std::abs(p.sm - truth[i].second.bw), std::abs(p.bw - truth[i].second.sm)});
    }
    // Where a component never binds in any pair, the speeds fix it only loosely (a range of
    // values fits exactly), hence a looser bound on the demands than on the speeds.
    EXPECT_LT(std::min(direct, swapped), amplitude == 0 ? 0.05 : 0.15) << "noise " << amplitude;
  }
}

// The error a profile reports, recomputed here from its stored tables and demands (and its
// partners' stored demands), without the library's fitting code.
ErrorSummary recompute(const WorkloadProfile& p, const ProfileLibrary& library) {
  std::vector<double> e;
  if (!p.mig_latency_s.empty()) {
    const double full = p.mig_latency_s.at("7g.40gb");
    for (const Slice& s : kSlices) {
      const auto it = p.mig_latency_s.find(s.name);
      if (it == p.mig_latency_s.end()) continue;
      const double measured = full / it->second;
      const double predicted =
          std::min({1.0, s.f_sm / p.sm, s.f_bw / p.bw}) / std::min({1.0, k7g.f_sm / p.sm, k7g.f_bw / p.bw});
      e.push_back((predicted - measured) / measured);
    }
  }
  const auto table = p.pair_throughput.find("v100");
  if (table != p.pair_throughput.end()) {
    for (const auto& [partner, value] : table->second) {
      const WorkloadProfile* other = library.find(partner);
      if (other == nullptr) {
        ADD_FAILURE() << p.name << ": partner " << partner << " not in the library";
        continue;
      }
      const double measured = value.own / p.isolated_throughput.at("v100");
      const double predicted = pair_rates({p.sm, p.bw}, {other->sm, other->bw})[0];
      e.push_back((predicted - measured) / measured);
    }
  }
  ErrorSummary out;
  out.count = static_cast<std::int64_t>(e.size());
  double sum = 0;
  for (const double x : e) {
    sum += x * x;
    out.max = std::max(out.max, std::abs(x));
  }
  out.rms = e.empty() ? 0 : std::sqrt(sum / static_cast<double>(e.size()));
  return out;
}

TEST(WorkloadProfileLibrary, ReportedErrorsEqualAnIndependentRecomputation) {
  const ProfileLibrary& library = ProfileLibrary::builtin();
  ASSERT_FALSE(library.profiles().empty()) << "scenarios/profiles/ has no profiles (sharesim profiles fit)";
  for (const WorkloadProfile& p : library.profiles()) {
    if (p.published()) continue;  // no fit (PublishedProfilesDeriveTheirNumbers below)
    const ErrorSummary e = recompute(p, library);
    EXPECT_EQ(p.fit.measurements, e.count) << p.name;
    EXPECT_NEAR(p.fit.rms_rel_error, e.rms, 1e-6) << p.name;  // stored to 6 decimals
    EXPECT_NEAR(p.fit.max_rel_error, e.max, 1e-6) << p.name;
    EXPECT_GE(p.sm, kMinDemand) << p.name;
    EXPECT_LE(p.sm, 1.0) << p.name;
    EXPECT_GE(p.bw, kMinDemand) << p.name;
    EXPECT_LE(p.bw, 1.0) << p.name;
    EXPECT_FALSE(p.source.empty()) << p.name;
    EXPECT_NE(p.licence.find("MIT"), std::string::npos) << p.name;
  }
}

TEST(WorkloadProfileLibrary, ProfileJsonRoundTripsAndBadFieldsNameThePointer) {
  const ProfileLibrary& library = ProfileLibrary::builtin();
  ASSERT_FALSE(library.profiles().empty());
  const WorkloadProfile& p = library.profiles().front();
  nlohmann::json json = profile_to_json(p);
  EXPECT_EQ(profile_to_json(profile_from_json(json, "x.json")).dump(), json.dump());
  json["demand"]["sm"] = 1.5;
  EXPECT_EQ(input_error_of([&] { profile_from_json(json, "x.json"); }),
            "x.json: /demand/sm: expected a number from 0 to 1, found 1.5");
  json = profile_to_json(p);
  json["demnd"] = 1;
  EXPECT_NE(input_error_of([&] { profile_from_json(json, "x.json"); }).find("did you mean \"demand\"?"),
            std::string::npos);
}

// ---- Inference profiles from published serving measurements (docs/profiles.md) ------------

std::vector<const WorkloadProfile*> published_profiles() {
  std::vector<const WorkloadProfile*> out;
  for (const WorkloadProfile& p : ProfileLibrary::builtin().profiles()) {
    if (p.published()) out.push_back(&p);
  }
  return out;
}

TEST(WorkloadProfileLibrary, PublishedProfilesDeriveTheirNumbers) {
  const std::vector<const WorkloadProfile*> published = published_profiles();
  ASSERT_GE(published.size(), 4u);
  for (const WorkloadProfile* p : published) {
    SCOPED_TRACE(p->name);
    const ServingMeasurement& s = *p->serving;
    // Measured on a GPU of the catalog, and every number has its source.
    EXPECT_NE(GpuCatalog::builtin().find(s.gpu), nullptr) << s.gpu;
    EXPECT_GT(s.request_s, 0);
    ASSERT_TRUE(p->mem_mib.has_value());
    for (const auto& [pointer, n] : p->provenance) {
      EXPECT_FALSE(n.source.empty()) << pointer;
      EXPECT_TRUE(n.kind == "documented" || (n.kind == "derived" && !n.formula.empty())) << pointer;
    }
    // demand.sm = throughput at batch 1 / the highest throughput measured (4 decimals).
    ASSERT_TRUE(s.throughput_per_s.count(1));
    double best = 0;
    for (const auto& [batch, value] : s.throughput_per_s) best = std::max(best, value);
    EXPECT_NEAR(p->sm, s.throughput_per_s.at(1) / best, 5e-5);
    // The file is the canonical form of what it holds (written by scripts/inference_profiles.py).
    std::ifstream file(std::string(SHARESIM_SOURCE_DIR) + "/scenarios/profiles/" + p->name + ".json");
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_EQ(text.str(), profile_to_json(*p).dump(2) + "\n");
  }
  // The profiles whose source measures no bandwidth take the same share for it; Llama-2-7B's is
  // its weights read once per output token over the request, against the H100's measured DRAM
  // bandwidth (results/calibration/H100-80GB.json).
  for (const char* name : {"bert-base-infer-b1", "resnet50-infer-b1", "sd15-infer-b1"}) {
    const WorkloadProfile* p = ProfileLibrary::builtin().find(name);
    ASSERT_NE(p, nullptr) << name;
    EXPECT_EQ(p->bw, p->sm) << name;
  }
  const WorkloadProfile* llama = ProfileLibrary::builtin().find("llama2-7b-infer-b1");
  ASSERT_NE(llama, nullptr);
  const double params = 2.0 * 32000 * 4096 + 32 * (4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2 * 4096) + 4096;
  EXPECT_EQ(params, 6738415616.0);
  EXPECT_NEAR(llama->bw, params * 2 * 20 / llama->serving->request_s / 2990.2e9, 5e-5);
  EXPECT_EQ(*llama->mem_mib, static_cast<std::int64_t>(std::ceil((params * 2 + 148.0 * 2 * 32 * 4096 * 2) / 1048576)));
}

TEST(WorkloadProfileLibrary, PublishedProfileWithoutASourceIsALocatedError) {
  const WorkloadProfile* p = ProfileLibrary::builtin().find("bert-base-infer-b1");
  ASSERT_NE(p, nullptr);
  const nlohmann::json good = profile_to_json(*p);
  EXPECT_EQ(profile_to_json(profile_from_json(good, "x.json")).dump(), good.dump());

  nlohmann::json json = good;
  json["provenance"].erase("/demand/sm");
  EXPECT_EQ(input_error_of([&] { profile_from_json(json, "x.json"); }),
            "x.json: /provenance: expected the provenance of every number of \"demand\" and \"serving\", found "
            "none for \"/demand/sm\"");
  json = good;
  json["provenance"]["/demand/sm"]["provenance"] = "assumed";
  EXPECT_EQ(input_error_of([&] { profile_from_json(json, "x.json"); }),
            "x.json: /provenance/~1demand~1sm/provenance: expected one of \"documented\", \"derived\", found "
            "\"assumed\" (a published profile has no assumed numbers)");
  json = good;
  json["provenance"]["/demand/sm"].erase("formula");
  EXPECT_EQ(input_error_of([&] { profile_from_json(json, "x.json"); }),
            "x.json: /provenance/~1demand~1sm: expected a member \"formula\", found none");
  json = good;
  json["provenance"]["/serving/throughput_per_s/3"] = good["provenance"]["/demand/sm"];
  EXPECT_NE(input_error_of([&] {
              profile_from_json(json, "x.json");
            }).find("x.json: /provenance: expected provenance only for numbers of this profile"),
            std::string::npos);
  json = good;
  json["serving"]["request_sec"] = 1;
  EXPECT_NE(
      input_error_of([&] { profile_from_json(json, "x.json"); }).find("x.json: /serving/request_sec: expected one of"),
      std::string::npos);
  json = good;
  json["serving"]["throughput_per_s"]["01"] = 5;
  EXPECT_NE(input_error_of([&] {
              profile_from_json(json, "x.json");
            }).find("x.json: /serving/throughput_per_s/01: expected a batch size"),
            std::string::npos);
  json = good;
  json["fit"] = profile_to_json(ProfileLibrary::builtin().profiles().front())["fit"];
  EXPECT_NE(input_error_of([&] { profile_from_json(json, "x.json"); }).find("x.json: /fit: expected no \"fit\""),
            std::string::npos);
}

bool have_shared(const std::string& relative) { return std::filesystem::exists(kSharedData + "/" + relative); }

TEST(WorkloadProfileRealData, MisoAndGavelFitGivesFiniteErrorsAndTheBuiltInFiles) {
  if (!have_shared("miso/mig_mean_iter_latency_s.csv") || !have_shared("gavel/simulation_throughputs.json")) {
    GTEST_SKIP() << kSharedData << "/miso or /gavel absent";
  }
  std::vector<WorkloadProfile> profiles = read_miso_profiles(kSharedData + "/miso");
  EXPECT_EQ(profiles.size(), 32u);  // 32 model/batch rows (data README)
  std::vector<WorkloadProfile> gavel = read_gavel_profiles(kSharedData + "/gavel");
  EXPECT_FALSE(gavel.empty());
  profiles.insert(profiles.end(), gavel.begin(), gavel.end());
  fit_profiles(profiles, pair_rates);
  // The interference parameters as `profiles fit` fits them; the rates are the interference
  // model's own (the MPS policy's, which with one replica adds no cap).
  fit_profile_interference(profiles, [](std::span<const InterferenceParams> params) {
    std::vector<const InterferenceParams*> pointers;
    for (const InterferenceParams& p : params) pointers.push_back(&p);
    std::vector<double> rates(params.size());
    concurrent_rates(pointers, rates);
    return rates;
  });
  std::size_t miso = 0;
  for (const WorkloadProfile& p : profiles) {
    miso += p.fit.data == "miso";
    EXPECT_TRUE(std::isfinite(p.fit.rms_rel_error)) << p.name;
    EXPECT_TRUE(std::isfinite(p.fit.max_rel_error)) << p.name;
    EXPECT_GE(p.fit.max_rel_error, p.fit.rms_rel_error) << p.name;
    EXPECT_GT(p.fit.measurements, 0) << p.name;
  }
  EXPECT_EQ(miso, 32u);
  // The shipped files are exactly what the fit writes now (regenerate with
  // `sharesim profiles fit --miso ../shared/data/miso --gavel ../shared/data/gavel -o scenarios/profiles`).
  for (const WorkloadProfile& p : profiles) {
    std::ifstream file(std::string(SHARESIM_SOURCE_DIR) + "/scenarios/profiles/" + p.name + ".json");
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_EQ(text.str(), profile_to_json(p).dump(2) + "\n") << p.name << " differs from scenarios/profiles/";
  }
  std::size_t fitted = 0;
  for (const WorkloadProfile& p : ProfileLibrary::builtin().profiles())
    if (!p.published()) ++fitted;
  EXPECT_EQ(fitted, profiles.size());
}

TEST(WorkloadProfileRealData, BadMisoRowNamesFileLineAndColumn) {
  const std::string dir = ::testing::TempDir() + "/sharesim_profiles_bad_miso";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/mig_mean_iter_latency_s.csv")
      << "model_batch,7g.40gb,4g.20gb,3g.20gb,2g.10gb,1g.5gb\nbert_train2,0.04723,0.06865,abc,,\n";
  EXPECT_EQ(input_error_of([&] { read_miso_profiles(dir); }),
            dir +
                "/mig_mean_iter_latency_s.csv: line 2, column 3g.20gb: expected a mean iteration latency in "
                "seconds (> 0) or a blank, found \"abc\"");
}

TEST(WorkloadProfileRealData, MisoRowWithMoreFieldsThanTheHeaderIsRefused) {
  const std::string dir = ::testing::TempDir() + "/sharesim_profiles_long_miso_row";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/mig_mean_iter_latency_s.csv")
      << "model_batch,7g.40gb,4g.20gb,3g.20gb,2g.10gb,1g.5gb\nbert_train2,0.04723,0.5,0.06865,0.07534,0.12136,\n";
  EXPECT_EQ(input_error_of([&] { read_miso_profiles(dir); }),
            dir + "/mig_mean_iter_latency_s.csv: line 2: expected 6 fields as in the header, found 7");
}

TEST(WorkloadProfileRealData, GavelPairWithoutItsPartnersEntryIsLocated) {
  const std::string dir = ::testing::TempDir() + "/sharesim_profiles_gavel_no_partner";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/simulation_throughputs.json")
      << R"json({"k80": {}, "p100": {}, "v100": {"('A3C', 1)": {"null": 5, "('LM (batch size 5)', 1)": [2, 2]}}})json";
  EXPECT_EQ(input_error_of([&] { read_gavel_profiles(dir); }),
            dir +
                "/simulation_throughputs.json: /v100/('A3C', 1)/('LM (batch size 5)', 1): expected a partner with an "
                "entry of its own under /v100 (its throughput alone), found none for \"LM (batch size 5)\"");
}

TEST(WorkloadProfileRealData, GavelPairsThatDidNotFitAreListedOnceAndLeftOutOfThePairTables) {
  const std::string dir = ::testing::TempDir() + "/sharesim_profiles_gavel_did_not_fit";
  std::filesystem::create_directories(dir);
  // A3C with LM did not fit (0 in both jobs' entries), nor LM with itself; A3C with itself did.
  std::ofstream(dir + "/simulation_throughputs.json") << R"json({"k80": {}, "p100": {}, "v100": {
      "('LM (batch size 5)', 1)": {"null": 4, "('A3C', 1)": [0, 0], "('LM (batch size 5)', 1)": [0, 0],
                                   "('ResNet-18 (batch size 16)', 1)": [2, 1]},
      "('A3C', 1)": {"null": 5, "('LM (batch size 5)', 1)": [0, 0], "('A3C', 1)": [2, 2]},
      "('ResNet-18 (batch size 16)', 1)": {"null": 3, "('LM (batch size 5)', 1)": [1, 2]}}})json";
  std::vector<GavelUnfitPair> did_not_fit;
  const std::vector<WorkloadProfile> profiles = read_gavel_profiles(dir, &did_not_fit);
  const std::vector<GavelUnfitPair> expected{{"v100", "a3c-train", "lm-train-b5"},
                                             {"v100", "lm-train-b5", "lm-train-b5"}};
  EXPECT_EQ(did_not_fit, expected);
  ASSERT_EQ(profiles.size(), 3u);
  for (const WorkloadProfile& p : profiles) {
    const auto& table = p.pair_throughput.at("v100");
    EXPECT_EQ(table.size(), 1u) << p.name;  // a3c: itself; lm: resnet18; resnet18: lm
    if (p.name == "a3c-train") {
      EXPECT_EQ(table.count("lm-train-b5"), 0u);
    }
    if (p.name == "lm-train-b5") {
      EXPECT_EQ(table.count("a3c-train") + table.count("lm-train-b5"), 0u);
    }
  }
  // The validation's table: the 2 fitting pairs and, by index, the 2 that did not fit.
  const PairTable table = gavel_pair_table(profiles, "v100", did_not_fit);
  ASSERT_EQ(table.jobs, (std::vector<std::string>{"a3c-train", "lm-train-b5", "resnet18-train-b16"}));
  EXPECT_EQ(table.pairs.size(), 2u);
  ASSERT_EQ(table.did_not_fit.size(), 2u);
  EXPECT_EQ(table.did_not_fit[0].a, 0u);
  EXPECT_EQ(table.did_not_fit[0].b, 1u);
  EXPECT_EQ(table.did_not_fit[1].a, 1u);
  EXPECT_EQ(table.did_not_fit[1].b, 1u);
  // Without the list, the reader's result is the same.
  const std::vector<WorkloadProfile> plain = read_gavel_profiles(dir);
  ASSERT_EQ(plain.size(), profiles.size());
  for (std::size_t i = 0; i < plain.size(); ++i) EXPECT_EQ(profile_to_json(plain[i]), profile_to_json(profiles[i]));
}

TEST(WorkloadProfileRealData, GavelPairThatDidNotFitWithoutItsPartnersEntryIsLocated) {
  const std::string dir = ::testing::TempDir() + "/sharesim_profiles_gavel_unfit_no_partner";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/simulation_throughputs.json")
      << R"json({"k80": {}, "p100": {}, "v100": {"('A3C', 1)": {"null": 5, "('LM (batch size 5)', 1)": [0, 0]}}})json";
  std::vector<GavelUnfitPair> did_not_fit;
  EXPECT_EQ(input_error_of([&] { read_gavel_profiles(dir, &did_not_fit); }),
            dir +
                "/simulation_throughputs.json: /v100/('A3C', 1)/('LM (batch size 5)', 1): expected a partner with an "
                "entry of its own under /v100 (its throughput alone), found none for \"LM (batch size 5)\"");
}

// Gavel's own file: 26 single-GPU job types, 351 unordered pairs (26 of a job with its own type)
// per worker type; those with throughput 0 did not fit.
TEST(WorkloadProfileRealData, GavelPairsThatDidNotFitPerWorkerType) {
  if (!have_shared("gavel/simulation_throughputs.json")) GTEST_SKIP() << kSharedData << "/gavel absent";
  std::vector<GavelUnfitPair> did_not_fit;
  const std::vector<WorkloadProfile> profiles = read_gavel_profiles(kSharedData + "/gavel", &did_not_fit);
  ASSERT_EQ(profiles.size(), 26u);
  const std::map<std::string, std::size_t> unfit_expected{{"v100", 21}, {"p100", 11}, {"k80", 45}};
  for (const auto& [gpu, unfit] : unfit_expected) {
    const PairTable table = gavel_pair_table(profiles, gpu, did_not_fit);
    EXPECT_EQ(table.jobs.size(), 26u) << gpu;
    EXPECT_EQ(table.did_not_fit.size(), unfit) << gpu;
    EXPECT_EQ(table.pairs.size() + table.did_not_fit.size(), 26u * 27u / 2) << gpu;
  }
  // V100: 24 fitting pairs of a job with its own type; the 2 that did not fit.
  const PairTable v100 = gavel_pair_table(profiles, "v100", did_not_fit);
  EXPECT_EQ(std::count_if(v100.pairs.begin(), v100.pairs.end(), [](const MeasuredPair& m) { return m.a == m.b; }), 24);
  std::vector<std::string> same_type_unfit;
  for (const UnfitPair& u : v100.did_not_fit) {
    if (u.a == u.b) same_type_unfit.push_back(v100.jobs[u.a]);
  }
  EXPECT_EQ(same_type_unfit, (std::vector<std::string>{"resnet50-train-b128", "transformer-train-b256"}));
}

TEST(WorkloadProfileValidation, PairsThatDidNotFitCountAsNotPackableInPackOrNotOnly) {
  PairTable table{"v100", {"x", "y", "z"}, {{0, 1, 0.7, 0.6}, {0, 2, 0.4, 0.5}}, {}};
  const std::vector<std::array<double, 2>> predicted{{0.75, 0.6}, {0.45, 0.45}};  // 1.35 pack, 0.9 not: both right
  const PairMetrics fitting = pair_metrics(table, predicted);
  EXPECT_EQ(fitting.did_not_fit, 0u);
  EXPECT_DOUBLE_EQ(fitting.pack_accuracy, 1.0);
  EXPECT_DOUBLE_EQ(fitting.pack_accuracy_all, 1.0);

  table.did_not_fit = {{1, 2}, {2, 2}};
  // y + z predicted to pack (1.3: wrong, it did not fit), z + z not (0.9: right).
  const std::vector<std::array<double, 2>> unfit{{0.7, 0.6}, {0.45, 0.45}};
  const PairMetrics all = pair_metrics(table, predicted, unfit);
  EXPECT_EQ(all.did_not_fit, 2u);
  EXPECT_DOUBLE_EQ(all.pack_accuracy, 1.0);          // over the fitting pairs, as before
  EXPECT_DOUBLE_EQ(all.pack_accuracy_all, 3.0 / 4);  // 2 + 1 right of 4
  // The speed errors have no measurement of a pair that did not fit: unchanged.
  EXPECT_EQ(all.pairs, fitting.pairs);
  EXPECT_EQ(all.speeds, fitting.speeds);
  EXPECT_DOUBLE_EQ(all.median_abs_rel, fitting.median_abs_rel);
  EXPECT_DOUBLE_EQ(all.p90_abs_rel, fitting.p90_abs_rel);
  EXPECT_DOUBLE_EQ(all.combined_median_abs_rel, fitting.combined_median_abs_rel);
  // A prediction missing for a pair that did not fit is a caller's error, not a silent 0.
  EXPECT_THROW(pair_metrics(table, predicted), std::invalid_argument);
}

struct ContextFixture {
  ShapeTable shapes;
  std::vector<JobOrigin> origins;
  ResourceNames names;
  WorkloadContext context{shapes,          origins, names, GpuCatalog::builtin(), registered_per_device_resources(),
                          "scenario.json", ".",     1};
};

TEST(WorkloadProfileScenario, RequestProfileGivesTheFittedDemandAndDemandOverridesFields) {
  const ProfileLibrary& library = ProfileLibrary::builtin();
  ASSERT_FALSE(library.profiles().empty());
  const WorkloadProfile& p = library.profiles().back();
  ContextFixture f;
  const std::uint32_t shape =
      f.context.shape_from_request({{"gpus", 1}, {"profile", p.name}}, "/workload/jobs/0/request");
  EXPECT_EQ(f.shapes.shapes[shape].demand.sm, p.sm);
  EXPECT_EQ(f.shapes.shapes[shape].demand.bw, p.bw);
  const std::uint32_t overridden = f.context.shape_from_request(
      {{"gpus", 1}, {"profile", p.name}, {"demand", {{"bw", 0.123}, {"mem_mib", 4096}}}}, "/workload/jobs/1/request");
  EXPECT_EQ(f.shapes.shapes[overridden].demand.sm, p.sm);
  EXPECT_EQ(f.shapes.shapes[overridden].demand.bw, 0.123);
  EXPECT_EQ(f.shapes.shapes[overridden].demand.mem_mib, 4096);
}

TEST(WorkloadProfileScenario, UnknownProfileIsOneLineErrorWithSuggestion) {
  const ProfileLibrary& library = ProfileLibrary::builtin();
  ASSERT_NE(library.find("bert-train-b8"), nullptr);
  ContextFixture f;
  const std::string message = input_error_of([&] {
    f.context.shape_from_request({{"profile", "bert-trian-b8"}}, "/workload/jobs/0/request");
  });
  EXPECT_EQ(message,
            "scenario.json: /workload/jobs/0/request/profile: expected a workload profile name (sharesim profiles "
            "list), found \"bert-trian-b8\"; did you mean \"bert-train-b8\"?");
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace sharesim
