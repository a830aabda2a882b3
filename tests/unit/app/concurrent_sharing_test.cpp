// Concurrent sharing with asymmetric interference (policies/contention/interference_model.h,
// docs/models.md "Concurrent sharing: asymmetric interference"): the rate formula, the MPS
// policy's use of fitted parameters and measured pairs, the fit's recovery of known parameters,
// and docs/validation.md against a recomputation (skipped without ../shared/data).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/duty_cycle_validation.h"
#include "apps/profiles_validate.h"
#include "policies/contention/interference_model.h"
#include "policies/mps/mps_policy.h"
#include "policies/sharing_config.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/input/input_error.h"
#include "workloads/profiles/interference_fit.h"

namespace sharesim {
namespace {

const std::string kSharedData = SHARESIM_SHARED_DATA_DIR;
const std::string kSourceDir = SHARESIM_SOURCE_DIR;

InterferenceParams params(std::array<double, kInterferenceDims> s, std::array<double, kInterferenceDims> p) {
  InterferenceParams out;
  out.sensitivity = s;
  out.pressure = p;
  return out;
}

TEST(ConcurrentInterference, PairIsAsymmetricAndPressuresAdd) {
  // a is sensitive to SMs, b presses hard on them; c presses on DRAM, which only b feels.
  const InterferenceParams a = params({1.0, 0, 0, 0}, {0.2, 0, 0, 0});
  const InterferenceParams b = params({0.5, 2.0, 0, 0}, {3.0, 0, 0, 0});
  const InterferenceParams c = params({0, 0, 0, 0}, {0, 0.25, 0, 0});
  const std::array<const InterferenceParams*, 2> pair{&a, &b};
  std::array<double, 2> rates{};
  concurrent_rates(pair, rates);
  EXPECT_DOUBLE_EQ(rates[0], 1.0 / (1.0 + 1.0 * 3.0));
  EXPECT_DOUBLE_EQ(rates[1], 1.0 / (1.0 + 0.5 * 0.2));
  const std::array<const InterferenceParams*, 4> group{&a, &b, &c, nullptr};
  std::array<double, 4> rates3{};
  concurrent_rates(group, rates3);
  EXPECT_DOUBLE_EQ(rates3[0], 1.0 / (1.0 + 3.0));               // c adds nothing to a
  EXPECT_DOUBLE_EQ(rates3[1], 1.0 / (1.0 + 0.1 + 2.0 * 0.25));  // a's and c's pressures add
  EXPECT_DOUBLE_EQ(rates3[2], 1.0);
  EXPECT_DOUBLE_EQ(rates3[3], 0.0);  // no GPU work
}

struct MpsFixture {
  const GpuModel& model = *GpuCatalog::builtin().find("V100-16GB");
  std::vector<InterferenceParams> table{params({1.0, 0, 0, 0}, {0.5, 0, 0, 0}), params({0.2, 0, 0, 0}, {2.0, 0, 0, 0})};
  MpsPolicy policy(MeasuredProfiles measured) const {
    MpsSettings settings;
    settings.pinned_mem_limit_mib = model.memory_mib;
    return MpsPolicy(settings, ResourceId{0}, "nvidia.com/gpu", model, builtin_calibration_profile(model.id),
                     std::move(measured));
  }
  MeasuredProfiles with_table() const {
    MeasuredProfiles m;
    m.interference = [this](std::uint32_t id) -> const InterferenceParams* {
      return id >= 1 && id <= table.size() ? &table[id - 1] : nullptr;
    };
    return m;
  }
};

std::vector<Resident> residents_with_profiles(std::initializer_list<std::uint32_t> ids) {
  std::vector<Resident> out;
  for (std::uint32_t id : ids) {
    Resident r;
    r.demand.sm = 1.0;
    r.demand.bw = 0.5;
    r.demand.profile = id;
    out.push_back(r);
  }
  return out;
}

TEST(ConcurrentInterference, MpsPolicyUsesFittedParametersWhereEveryClientHasThem) {
  const MpsFixture f;
  const MpsPolicy policy = f.policy(f.with_table());
  std::vector<Resident> both = residents_with_profiles({1, 2});
  policy.compute_rates(both);
  EXPECT_DOUBLE_EQ(both[0].rate, 1.0 / (1.0 + 1.0 * 2.0));
  EXPECT_DOUBLE_EQ(both[1].rate, 1.0 / (1.0 + 0.2 * 0.5));
  // A client without parameters (profile 0): the water-filling model for everyone, as without
  // any profile table.
  std::vector<Resident> mixed = residents_with_profiles({1, 0});
  std::vector<Resident> plain = residents_with_profiles({0, 0});
  policy.compute_rates(mixed);
  f.policy({}).compute_rates(plain);
  EXPECT_DOUBLE_EQ(mixed[0].rate, plain[0].rate);
  EXPECT_DOUBLE_EQ(mixed[1].rate, plain[1].rate);
  // Alone: full speed.
  std::vector<Resident> alone = residents_with_profiles({1});
  policy.compute_rates(alone);
  EXPECT_DOUBLE_EQ(alone[0].rate, 1.0);
}

TEST(ConcurrentInterference, MeasuredPairOverridesTheModelOnItsGpuModelOnly) {
  const MpsFixture f;
  MeasuredProfiles measured = f.with_table();
  measured.pair_speed = [](std::uint32_t a, std::uint32_t, std::string_view gpu) -> std::optional<double> {
    if (gpu != "V100-16GB") return std::nullopt;
    return a == 1 ? 0.7 : 0.4;
  };
  std::vector<Resident> pair = residents_with_profiles({1, 2});
  f.policy(measured).compute_rates(pair);
  EXPECT_DOUBLE_EQ(pair[0].rate, 0.7);
  EXPECT_DOUBLE_EQ(pair[1].rate, 0.4);
  // Three clients: no measured triple, the model.
  std::vector<Resident> triple = residents_with_profiles({1, 2, 2});
  f.policy(measured).compute_rates(triple);
  EXPECT_DOUBLE_EQ(triple[0].rate, 1.0 / (1.0 + 2.0 + 2.0));
}

TEST(ConcurrentInterference, FitRecoversKnownRankTwoParameters) {
  // Eight jobs with known rank-2 latent parameters; every ordered pair's speed from the model.
  const std::size_t jobs = 8;
  std::vector<InterferenceParams> truth(jobs);
  for (std::size_t i = 0; i < jobs; ++i) {
    truth[i].sensitivity[kNamedResources] = 0.2 + 0.1 * static_cast<double>(i % 3);
    truth[i].sensitivity[kNamedResources + 1] = 0.1 + 0.15 * static_cast<double>(i % 4);
    truth[i].pressure[kNamedResources] = 0.3 + 0.2 * static_cast<double>((i + 1) % 3);
    truth[i].pressure[kNamedResources + 1] = 0.5 + 0.1 * static_cast<double>(i % 5);
  }
  std::vector<CorunObservation> observations;
  for (std::uint32_t i = 0; i < jobs; ++i) {
    for (std::uint32_t j = 0; j < jobs; ++j) {
      observations.push_back({i, {j}, 1.0 / (1.0 + interference_term(truth[i], truth[j]))});
    }
  }
  const std::vector<JobMasks> masks(jobs, JobMasks{latent_mask(2), latent_mask(2)});
  const std::vector<InterferenceParams> fitted = fit_interference(observations, masks, {1e-6, 2000});
  for (const CorunObservation& o : observations) {
    const double predicted = 1.0 / (1.0 + interference_term(fitted[o.victim], fitted[o.partners[0]]));
    EXPECT_NEAR(predicted, o.speed, 0.01 * o.speed) << o.victim << " beside " << o.partners[0];
  }
}

// Checks that every non-empty line of `report` is in docs/validation.md; returns how many.
int lines_found_in_validation_doc(const std::string& report) {
  std::ifstream doc(kSourceDir + "/docs/validation.md");
  std::stringstream text;
  text << doc.rdbuf();
  std::istringstream lines(report);
  std::string line;
  int checked = 0;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    EXPECT_NE(text.str().find(line), std::string::npos) << "docs/validation.md lacks: " << line;
    ++checked;
  }
  return checked;
}

// The rows the quick validation computes (in-sample on Gavel's V100 pairs, P100
// and K80 cross-GPU) must appear verbatim in docs/validation.md, which holds the full output
// of `sharesim profiles validate`.
TEST(ConcurrentInterferenceRealData, ValidationDocMatchesARecomputation) {
  if (!std::filesystem::exists(kSharedData + "/gavel/simulation_throughputs.json")) {
    GTEST_SKIP() << kSharedData << "/gavel absent";
  }
  // header, rule, in sample, P100, K80, hyperparameter line
  EXPECT_EQ(lines_found_in_validation_doc(gavel_validation_report(kSharedData + "/gavel", true)), 6);
}

// The calibration co-run table (raw files in the repository, so never skipped).
TEST(ConcurrentInterference, CalibrationTableInDocsMatchesARecomputation) {
  const std::string raw = kSourceDir + "/results/calibration/raw/";
  const std::string report =
      calibration_validation_report({raw + "H100-80GB-20261123.json", raw + "H200-141GB-20261123.json"});
  // header, rule, 3 rows per GPU and concurrent mode, 2 time-sliced rows (pairs, triples) per GPU
  EXPECT_EQ(lines_found_in_validation_doc(report), 2 + 2 * 2 * 3 + 2 * 2);
}

// The same table on the co-runs measured again on 2026-11-26 (docs/validation.md, "The same on
// the runs of 2026-11-26"): one H100 run, two H200 runs.
TEST(ConcurrentInterference, RepeatCalibrationTableInDocsMatchesARecomputation) {
  const std::string raw = kSourceDir + "/results/calibration/raw/";
  const std::string report = calibration_validation_report(
      {raw + "H100-80GB-20261126.json", raw + "H200-141GB-20261126-1.json", raw + "H200-141GB-20261126-2.json"});
  EXPECT_EQ(lines_found_in_validation_doc(report), 2 + 3 * 2 * 3 + 3 * 2);
}

// The duty-cycle probe's table (raw files in the repository, so never skipped): every summary
// row and every case, predicted by the timeslice and MPS policies.
TEST(DutyCycleValidation, TableInDocsMatchesARecomputation) {
  const std::string raw = kSourceDir + "/results/calibration/raw/";
  const std::string report =
      duty_cycle_validation_report({raw + "H100-80GB-duty-20261125.json", raw + "H200-141GB-duty-20261125.json",
                                    raw + "H200-141GB-duty-short-20261125.json"});
  // summary: header, rule, 5 rows per file; cases: header, rule, 24 time-sliced + 21 MPS per file
  EXPECT_EQ(lines_found_in_validation_doc(report), 2 + 3 * 5 + 2 + 3 * 45);
}

// The MPS thread-cap runs (2026-11-29): every capped case, alone too, against the uncapped alone
// runs, predicted by the mps policy with the case's active_thread_percentage.
TEST(DutyCycleValidation, ThreadCapTableInDocsMatchesARecomputation) {
  const std::string raw = kSourceDir + "/results/calibration/raw/";
  const std::string report = duty_cycle_validation_report(
      {raw + "H200-141GB-duty-mps75-20261129.json", raw + "H200-141GB-duty-mps25-20261129.json"});
  EXPECT_NE(report.find("| H200-141GB | 20 | MPS, 25% threads | 2 | exponential | 30 |"), std::string::npos) << report;
  // summary: header, rule, 3 rows (1, 2, 3 co-runners) per file; cases: header, rule, 26 per file
  EXPECT_EQ(lines_found_in_validation_doc(report), 2 + 2 * 3 + 2 + 2 * 26);
}

TEST(DutyCycleValidation, AThreadPercentageOnATimeSlicedCaseIsAnInputError) {
  std::ifstream in(kSourceDir + "/results/calibration/raw/H100-80GB-duty-20261125.json");
  nlohmann::json raw = nlohmann::json::parse(in);
  raw["duty_cycle"]["cases"][0]["mps_active_thread_percentage"] = 50;  // a time-sliced case
  const std::string path = ::testing::TempDir() + "duty-capped-processes.json";
  std::ofstream(path) << raw.dump();
  try {
    duty_cycle_validation_report({path});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/duty_cycle/cases/0/mps_active_thread_percentage: expected a thread "
                                         "percentage only on an \"mps\" case, found one on \"processes\""),
              std::string::npos)
        << e.what();
  }
}

TEST(DutyCycleValidation, APairWithoutItsAloneRunIsAnInputError) {
  std::ifstream in(kSourceDir + "/results/calibration/raw/H100-80GB-duty-20261125.json");
  nlohmann::json raw = nlohmann::json::parse(in);
  raw["duty_cycle"]["cases"].erase(0);  // the alone run of duty 0.2, time-sliced
  const std::string path = ::testing::TempDir() + "duty-without-alone.json";
  std::ofstream(path) << raw.dump();
  try {
    duty_cycle_validation_report({path});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/duty_cycle: no alone run of duty 0.20 under processes"), std::string::npos)
        << e.what();
  }
}

TEST(DutyCycleValidation, ABadRawFileNamesTheFileOnceAndThePointer) {
  const std::string path = ::testing::TempDir() + "raw-without-gpu.json";
  std::ofstream(path) << R"({"format": "sharesim-calibration-raw/1"})";
  try {
    duty_cycle_validation_report({path});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": /gpu: required key is missing");
  }
}

TEST(DutyCycleValidation, AFileWithoutTheProbeIsAnInputError) {
  const std::string raw = kSourceDir + "/results/calibration/raw/H100-80GB-20261123.json";
  try {
    duty_cycle_validation_report({raw});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/duty_cycle: expected duty-cycle probe measurements"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace sharesim
