#include "workloads/profiles/profile_fit.h"

#include <unistd.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"
#include "sim/input/json_reader.h"
#include "sim/metrics/output_set.h"

namespace sharesim {

namespace {

const char* const kMisoSource =
    "MISO (Li et al., \"MISO: Exploiting Multi-Instance GPU Capability on Multi-Tenant GPU Clusters\", "
    "SoCC'22), github.com/boringlee24/socc22-miso, raw logs mps/models/logs/mig; read from "
    "../shared/data/miso/mig_mean_iter_latency_s.csv";
const char* const kMisoLicence = "MIT License, Copyright (c) 2022 Baolin Li (../shared/data/miso/LICENSE)";
const char* const kGavelSource =
    "Gavel (Narayanan et al., \"Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning "
    "Workloads\", OSDI'20), github.com/stanford-futuredata/gavel; read from "
    "../shared/data/gavel/simulation_throughputs.json";
const char* const kGavelLicence =
    "MIT License, Copyright (c) 2020 Stanford Future Data Systems (../shared/data/gavel/LICENSE)";
const std::array<const char*, 3> kGavelGpus{"k80", "p100", "v100"};

using Residuals = std::function<void(FitDemand, std::vector<double>&)>;

double cost_of(const Residuals& residuals, FitDemand x, std::vector<double>& buffer) {
  buffer.clear();
  residuals(x, buffer);
  double sum = 0;
  for (const double r : buffer) sum += r * r;
  return sum;
}

double clamp_demand(double v) { return std::clamp(v, kMinDemand, 1.0); }

// Where the error does not depend on a component (it is not the bottleneck in any
// measurement), any value below some bound fits equally well. Take the largest such value, sm
// first, then bw: the most contention the measurements allow, rather than an arbitrary corner.
FitDemand widen_flat_components(const Residuals& residuals, FitDemand x, double cost) {
  std::vector<double> buffer;
  const double allowed = cost * (1 + 1e-9) + 1e-15;
  for (int k = 0; k < 2; ++k) {
    const auto with = [&](double v) {
      FitDemand y = x;
      (k == 0 ? y.sm : y.bw) = v;
      return y;
    };
    double low = k == 0 ? x.sm : x.bw, high = 1.0;
    if (cost_of(residuals, with(high), buffer) <= allowed) {
      low = high;
    } else {
      for (int i = 0; i < 60; ++i) {  // bisection: cost is flat up to the bound, then rises
        const double mid = (low + high) / 2;
        (cost_of(residuals, with(mid), buffer) <= allowed ? low : high) = mid;
      }
    }
    x = with(low);
  }
  return x;
}

// Grid search, then Levenberg-Marquardt on the finite-difference Jacobian (the model is
// piecewise smooth: the Jacobian is that of the pieces active at the current point).
FitDemand fit_residuals(const Residuals& residuals) {
  std::vector<double> buffer;
  FitDemand best;
  double best_cost = std::numeric_limits<double>::infinity();
  constexpr int kGrid = 50;  // step 0.02
  for (int i = 1; i <= kGrid; ++i) {
    for (int j = 1; j <= kGrid; ++j) {
      const FitDemand x{i / double(kGrid), j / double(kGrid)};
      const double c = cost_of(residuals, x, buffer);
      if (c < best_cost) {
        best_cost = c;
        best = x;
      }
    }
  }
  if (buffer.empty()) return FitDemand{};
  double lambda = 1e-3;
  for (int iteration = 0; iteration < 200 && lambda < 1e8; ++iteration) {
    cost_of(residuals, best, buffer);
    const auto m = static_cast<Eigen::Index>(buffer.size());
    const Eigen::VectorXd r = Eigen::Map<const Eigen::VectorXd>(buffer.data(), m);
    Eigen::MatrixXd jacobian(m, 2);
    for (int k = 0; k < 2; ++k) {
      constexpr double h = 1e-7;
      FitDemand up = best, down = best;
      (k == 0 ? up.sm : up.bw) = clamp_demand((k == 0 ? best.sm : best.bw) + h);
      (k == 0 ? down.sm : down.bw) = clamp_demand((k == 0 ? best.sm : best.bw) - h);
      const double width = (k == 0 ? up.sm - down.sm : up.bw - down.bw);
      std::vector<double> r_up, r_down;
      residuals(up, r_up);
      residuals(down, r_down);
      for (Eigen::Index row = 0; row < m; ++row) {
        jacobian(row, k) = (r_up[static_cast<std::size_t>(row)] - r_down[static_cast<std::size_t>(row)]) / width;
      }
    }
    // Damped least squares: minimise |J d + r|^2 + lambda |d|^2 as one stacked QR problem.
    Eigen::MatrixXd a(m + 2, 2);
    a << jacobian, std::sqrt(lambda) * Eigen::Matrix2d::Identity();
    Eigen::VectorXd b(m + 2);
    b << -r, Eigen::Vector2d::Zero();
    const Eigen::Vector2d step = a.colPivHouseholderQr().solve(b);
    const FitDemand candidate{clamp_demand(best.sm + step(0)), clamp_demand(best.bw + step(1))};
    const double candidate_cost = cost_of(residuals, candidate, buffer);
    if (candidate_cost < best_cost - 1e-15) {
      best = candidate;
      best_cost = candidate_cost;
      lambda = std::max(lambda / 10, 1e-12);
    } else {
      lambda *= 10;
    }
    if (step.norm() < 1e-12) break;
  }
  return widen_flat_components(residuals, best, best_cost);
}

// The fit minimises the squared difference of predicted and measured speeds (both relative:
// to 7g.40gb, or to running alone); the report gives the relative error of each.
Residuals slice_residuals(std::span<const SliceObservation> observations) {
  return [observations](FitDemand x, std::vector<double>& out) {
    for (const SliceObservation& o : observations) out.push_back(slice_speed(x, o) - o.speed);
  };
}

Residuals pair_residuals(std::span<const PairObservation> observations, const PairSolver& solver) {
  return [observations, &solver](FitDemand x, std::vector<double>& out) {
    for (const PairObservation& o : observations) {
      const std::array<double, 2> rates = solver(x, o.self_pair ? x : o.partner);
      out.push_back(rates[0] - o.speed);
      // The partner's speed depends on this job's demand too: fitting one job given the others
      // then lowers the total error of all pairs (block coordinate descent).
      if (o.partner_speed > 0) out.push_back(rates[1] - o.partner_speed);
    }
  };
}

// The double nearest to `value` rounded to `digits` decimals, so files show "0.8291", not
// "0.8291000000000001".
double round_to(double value, int digits) { return std::strtod(format_fixed(value, digits).c_str(), nullptr); }

std::string trim(std::string text) {
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.pop_back();
  while (!text.empty() && text.front() == ' ') text.erase(text.begin());
  return text;
}

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream stream(line);
  while (std::getline(stream, field, separator)) fields.push_back(trim(field));
  if (!line.empty() && line.back() == separator) fields.emplace_back();
  return fields;
}

bool parse_positive(const std::string& text, double& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc{} && end == text.data() + text.size() && value > 0 && std::isfinite(value);
}

bool parse_count(std::string_view text, std::int64_t& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && error == std::errc{} && end == text.data() + text.size() && value >= 1;
}

// MISO's model names, as profile-name stems. Two are renamed because Gavel has a different
// job of the same name (docs/profiles.md, "Names"): MISO's "resnet" is Keras ResNet50 on
// CIFAR-10 and its "transformer" a Keras time-series classifier (MISO mps/models/*.py).
std::string miso_stem(const std::string& model) {
  if (model == "resnet") return "resnet50-cifar10";
  if (model == "transformer") return "transformer-ts";
  std::string stem = model;
  std::replace(stem.begin(), stem.end(), '_', '-');
  return stem;
}

std::string miso_note(const std::string& model) {
  if (model == "resnet") return "; Keras ResNet50 on CIFAR-10 (MISO mps/models/resnet_train.py)";
  if (model == "transformer")
    return "; Keras Transformer time-series classifier (MISO mps/models/transformer_train.py)";
  return "";
}

// "('ResNet-18 (batch size 16)', 1)" -> ("ResNet-18 (batch size 16)", 1)
bool parse_gavel_key(const std::string& key, std::string& job_type, std::int64_t& scale) {
  const std::size_t close = key.rfind("', ");
  if (key.rfind("('", 0) != 0 || close == std::string::npos || close < 2 || key.back() != ')') return false;
  job_type = key.substr(2, close - 2);
  return parse_count(std::string_view(key).substr(close + 3, key.size() - close - 4), scale);
}

// "ResNet-18 (batch size 16)" -> "resnet18-train-b16"; "A3C" -> "a3c-train".
std::string gavel_profile_name(const std::string& job_type) {
  std::string model = job_type, batch;
  const std::size_t paren = job_type.find(" (batch size ");
  if (paren != std::string::npos && job_type.back() == ')') {
    model = job_type.substr(0, paren);
    batch = job_type.substr(paren + 13, job_type.size() - paren - 14);
  }
  std::string stem;
  for (const char c : model) {
    if (c == '-') continue;
    stem += c == ' ' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return stem + "-train" + (batch.empty() ? "" : "-b" + batch);
}

// Refuses a directory or FIFO at once (require_regular_file), and reports a syntax error by line
// and column without the parser's own wording (parse_json_text).
nlohmann::ordered_json read_json_file(const std::string& path) { return parse_json_text(read_text_file(path), path); }

}  // namespace

double partition_speed(FitDemand demand, double f_sm, double f_bw) {
  double rate = 1.0;
  if (demand.sm > 0) rate = std::min(rate, f_sm / demand.sm);
  if (demand.bw > 0) rate = std::min(rate, f_bw / demand.bw);
  return rate;
}

double round_demand(double value) { return round_to(value, kDemandDigits); }

double slice_speed(FitDemand demand, const SliceObservation& observation) {
  return partition_speed(demand, observation.f_sm, observation.f_bw) /
         partition_speed(demand, observation.ref_f_sm, observation.ref_f_bw);
}

ErrorSummary relative_errors(std::span<const double> predicted, std::span<const double> measured) {
  if (predicted.size() != measured.size()) throw std::logic_error("relative_errors: sizes differ");
  ErrorSummary out;
  double sum = 0;
  for (std::size_t i = 0; i < predicted.size(); ++i) {
    const double e = (predicted[i] - measured[i]) / measured[i];
    sum += e * e;
    out.max = std::max(out.max, std::abs(e));
  }
  out.count = static_cast<std::int64_t>(predicted.size());
  out.rms = predicted.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(predicted.size()));
  return out;
}

FitDemand fit_slices(std::span<const SliceObservation> observations) {
  return fit_residuals(slice_residuals(observations));
}

FitDemand fit_pairs(std::span<const PairObservation> observations, const PairSolver& solver) {
  return fit_residuals(pair_residuals(observations, solver));
}

double slice_cost(FitDemand demand, std::span<const SliceObservation> observations) {
  std::vector<double> buffer;
  return cost_of(slice_residuals(observations), demand, buffer);
}

double pair_cost(FitDemand demand, std::span<const PairObservation> observations, const PairSolver& solver) {
  std::vector<double> buffer;
  return cost_of(pair_residuals(observations, solver), demand, buffer);
}

std::vector<WorkloadProfile> read_miso_profiles(const std::string& dir) {
  const std::string path = dir + "/mig_mean_iter_latency_s.csv";
  require_regular_file(path);  // a FIFO would block the read forever
  std::ifstream file(path);
  if (!file) throw InputError(path, "", std::string("cannot read file: ") + std::strerror(errno));
  std::string line;
  std::vector<std::string> expected{"model_batch"};
  for (const MigSlice& slice : kA100MigSlices) expected.emplace_back(slice.name);
  if (!std::getline(file, line)) throw InputError(path, "line 1", "expected a header, found an empty file");
  const std::vector<std::string> header = split(trim(line), ',');
  if (header.size() < expected.size() || !std::equal(expected.begin(), expected.end(), header.begin())) {
    std::string want;
    for (const std::string& name : expected) want += (want.empty() ? "" : ",") + name;
    throw InputError(path, "line 1", "expected the columns " + quote(want) + " first, found " + quote(trim(line)));
  }
  std::vector<WorkloadProfile> out;
  for (int number = 2; std::getline(file, line); ++number) {
    line = trim(line);
    if (line.empty()) continue;
    const std::string where = "line " + std::to_string(number);
    const std::vector<std::string> fields = split(line, ',');
    // As many fields as the header has columns: one more or one fewer would shift the values
    // read into the slice columns.
    if (fields.size() != header.size()) {
      throw InputError(path, where,
                       "expected " + std::to_string(header.size()) + " fields as in the header, found " +
                           std::to_string(fields.size()));
    }
    const std::string& row = fields[0];
    const std::size_t train = row.rfind("_train");
    std::int64_t batch = 0;
    // The model becomes a profile's file name: no path separator in it.
    if (train == std::string::npos || train == 0 || row.find_first_of("/\\") != std::string::npos ||
        !parse_count(std::string_view(row).substr(train + 6), batch)) {
      throw InputError(path, where + ", column model_batch",
                       "expected a name like \"bert_train8\" (model, _train, batch size), found " + quote(row));
    }
    const std::string model = row.substr(0, train);
    WorkloadProfile p;
    p.name = miso_stem(model) + "-train-b" + std::to_string(batch);
    p.description = "MISO training job " + quote(row) + " (batch size " + std::to_string(batch) +
                    ") on A100-40GB MIG slices" + miso_note(model);
    p.source = kMisoSource;
    p.licence = kMisoLicence;
    for (std::size_t i = 0; i < kA100MigSlices.size(); ++i) {
      const std::string slice(kA100MigSlices[i].name);
      const std::string& text = fields[i + 1];
      if (text.empty()) {
        if (i == 0) {
          throw InputError(path, where + ", column " + slice,
                           "expected the latency on the whole GPU (the reference), found a blank");
        }
        p.mig_out_of_memory.push_back(slice);
        continue;
      }
      double latency = 0;
      if (!parse_positive(text, latency)) {
        throw InputError(path, where + ", column " + slice,
                         "expected a mean iteration latency in seconds (> 0) or a blank, found " + quote(text));
      }
      p.mig_latency_s[slice] = latency;
    }
    p.mem_note = "not measured: MISO's table has iteration latencies only";
    if (!p.mig_out_of_memory.empty()) {
      p.mem_note += "; it ran out of memory on " + quoted_list(p.mig_out_of_memory) +
                    ", so it needs more than the largest of those offers";
    }
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(), [](const WorkloadProfile& a, const WorkloadProfile& b) { return a.name < b.name; });
  for (std::size_t i = 1; i < out.size(); ++i) {
    if (out[i].name == out[i - 1].name) {
      throw InputError(path, "", "expected one row per model and batch size, found two for " + quote(out[i].name));
    }
  }
  return out;
}

std::vector<WorkloadProfile> read_gavel_profiles(const std::string& dir, std::vector<GavelUnfitPair>* did_not_fit) {
  if (did_not_fit) did_not_fit->clear();
  const std::string path = dir + "/simulation_throughputs.json";
  const nlohmann::ordered_json doc = read_json_file(path);
  if (!doc.is_object()) throw InputError(path, "/", "expected an object of worker types, found " + describe_value(doc));
  std::map<std::string, WorkloadProfile> by_name;
  // Each pair kept: its partner must have an entry of its own on that worker type (its throughput
  // alone turns the pair's partner throughput into a speed), checked once every entry is read.
  struct Pair {
    std::string gpu, profile, partner, partner_type, pointer;
  };
  std::vector<Pair> pairs;
  for (const char* gpu : kGavelGpus) {
    const auto worker = doc.find(gpu);
    if (worker == doc.end() || !worker->is_object()) {
      throw InputError(path, std::string("/") + gpu,
                       "expected an object of job types, found " +
                           (worker == doc.end() ? std::string("none") : describe_value(*worker)));
    }
    for (const auto& [key, entry] : worker->items()) {
      const std::string pointer = pointer_append(std::string("/") + gpu, key);
      std::string job_type;
      std::int64_t scale = 0;
      if (!parse_gavel_key(key, job_type, scale) || job_type.find_first_of("/\\") != std::string::npos) {
        throw InputError(path, pointer,
                         "expected a key like \"('ResNet-18 (batch size 16)', 1)\", found " + quote(key));
      }
      if (scale != 1) continue;  // distributed jobs: out of scope (docs/profiles.md)
      if (!entry.is_object()) throw InputError(path, pointer, "expected an object, found " + describe_value(entry));
      const auto alone = entry.find("null");
      if (alone == entry.end() || !alone->is_number() || !(alone->get<double>() > 0)) {
        throw InputError(path, pointer + "/null",
                         "expected the throughput alone (a number > 0), found " +
                             (alone == entry.end() ? std::string("none") : describe_value(*alone)));
      }
      const std::string name = gavel_profile_name(job_type);
      WorkloadProfile& p = by_name[name];
      if (p.name.empty()) {
        p.name = name;
        p.description = "Gavel job type " + quote(job_type) + " on one GPU";
        p.source = kGavelSource;
        p.licence = kGavelLicence;
        p.mem_note =
            "not measured: Gavel's throughputs have no memory footprint (a pair that did not fit has throughput 0 "
            "and is left out of the pair table)";
      }
      p.isolated_throughput[gpu] = alone->get<double>();
      for (const auto& [partner_key, value] : entry.items()) {
        if (partner_key == "null") continue;
        const std::string partner_pointer = pointer_append(pointer, partner_key);
        std::string partner_type;
        std::int64_t partner_scale = 0;
        if (!parse_gavel_key(partner_key, partner_type, partner_scale) ||
            partner_type.find_first_of("/\\") != std::string::npos) {
          throw InputError(path, partner_pointer,
                           "expected a key like \"('ResNet-18 (batch size 16)', 1)\", found " + quote(partner_key));
        }
        if (partner_scale != 1) continue;
        if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number() ||
            value[0].get<double>() < 0 || value[1].get<double>() < 0) {
          throw InputError(path, partner_pointer,
                           "expected [own, other] throughputs (numbers >= 0), found " + describe_value(value));
        }
        if (value[0].get<double>() <= 0 || value[1].get<double>() <= 0) {  // 0: the pair did not fit
          if (did_not_fit) {
            const std::string other = gavel_profile_name(partner_type);
            did_not_fit->push_back({gpu, std::min(name, other), std::max(name, other)});
            pairs.push_back({gpu, name, other, partner_type, partner_pointer});
          }
          continue;
        }
        p.pair_throughput[gpu][gavel_profile_name(partner_type)] = {value[0].get<double>(), value[1].get<double>()};
        pairs.push_back({gpu, name, gavel_profile_name(partner_type), partner_type, partner_pointer});
      }
    }
  }
  for (const Pair& pair : pairs) {
    const auto partner = by_name.find(pair.partner);
    if (partner == by_name.end() || partner->second.isolated_throughput.count(pair.gpu) == 0) {
      throw InputError(path, pair.pointer,
                       "expected a partner with an entry of its own under /" + pair.gpu +
                           " (its throughput alone), found none for " + quote(pair.partner_type));
    }
  }
  if (did_not_fit) {  // each pair is in both jobs' entries (once for a job with its own type)
    const auto key = [](const GavelUnfitPair& u) { return std::tie(u.gpu, u.job, u.partner); };
    std::sort(did_not_fit->begin(), did_not_fit->end(),
              [&](const GavelUnfitPair& x, const GavelUnfitPair& y) { return key(x) < key(y); });
    did_not_fit->erase(std::unique(did_not_fit->begin(), did_not_fit->end()), did_not_fit->end());
  }
  std::vector<WorkloadProfile> out;
  for (auto& [name, profile] : by_name) out.push_back(std::move(profile));
  return out;
}

std::vector<SliceObservation> slice_observations(const WorkloadProfile& profile) {
  std::vector<SliceObservation> out;
  const auto share = [](const MigSlice& slice) {
    return std::pair{static_cast<double>(slice.sm_count) / kMisoGpuSmCount, slice.memory_eighths / 8.0};
  };
  const auto [ref_sm, ref_bw] = share(kA100MigSlices[0]);
  for (std::size_t i = 1; i < kA100MigSlices.size(); ++i) {  // 7g.40gb is the reference (speed 1 by definition)
    const MigSlice& slice = kA100MigSlices[i];
    if (const auto speed = profile.mig_speed(slice.name)) {
      const auto [f_sm, f_bw] = share(slice);
      out.push_back({f_sm, f_bw, *speed, ref_sm, ref_bw});
    }
  }
  return out;
}

std::vector<PairObservation> pair_observations(const WorkloadProfile& profile,
                                               const std::vector<WorkloadProfile>& all) {
  std::vector<PairObservation> out;
  const auto table = profile.pair_throughput.find(kGavelFitGpu);
  if (table == profile.pair_throughput.end()) return out;
  for (const auto& entry : table->second) {
    const std::string& partner = entry.first;
    const auto& value = entry.second;
    const auto it = std::find_if(all.begin(), all.end(), [&](const WorkloadProfile& p) { return p.name == partner; });
    if (it == all.end()) {
      throw std::logic_error("pair_observations: partner " + partner + " of " + profile.name + " is not a profile");
    }
    const double speed = *profile.pair_speed(kGavelFitGpu, partner);
    const double partner_speed = value.partner / it->isolated_throughput.at(kGavelFitGpu);
    out.push_back({FitDemand{it->sm, it->bw}, partner == profile.name, speed, partner_speed});
  }
  return out;
}

namespace {

// Levenberg-Marquardt over the demands of all profiles with pair measurements at once: the
// alternating fit can stop where no single job's change helps but a joint one does (the model
// is piecewise). Residuals: every such profile's own speed beside each partner.
void refine_jointly(std::vector<WorkloadProfile>& profiles, const PairSolver& solver) {
  std::vector<std::size_t> jobs;
  std::map<std::string, Eigen::Index> index;
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    if (profiles[i].pair_throughput.count(kGavelFitGpu) == 0) continue;
    index[profiles[i].name] = static_cast<Eigen::Index>(jobs.size());
    jobs.push_back(i);
  }
  struct Term {
    Eigen::Index self, partner;
    double speed;
  };
  std::vector<Term> terms;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const WorkloadProfile& p = profiles[jobs[j]];
    for (const auto& [partner, value] : p.pair_throughput.at(kGavelFitGpu)) {
      const auto it = index.find(partner);
      if (it == index.end()) continue;
      terms.push_back({static_cast<Eigen::Index>(j), it->second, *p.pair_speed(kGavelFitGpu, partner)});
    }
  }
  if (terms.empty()) return;
  const Eigen::Index n = 2 * static_cast<Eigen::Index>(jobs.size());
  const auto m = static_cast<Eigen::Index>(terms.size());
  Eigen::VectorXd x(n);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    x(2 * static_cast<Eigen::Index>(j)) = profiles[jobs[j]].sm;
    x(2 * static_cast<Eigen::Index>(j) + 1) = profiles[jobs[j]].bw;
  }
  const auto residuals = [&](const Eigen::VectorXd& v) {
    Eigen::VectorXd r(m);
    for (Eigen::Index k = 0; k < m; ++k) {
      const Term& t = terms[static_cast<std::size_t>(k)];
      const FitDemand a{v(2 * t.self), v(2 * t.self + 1)}, b{v(2 * t.partner), v(2 * t.partner + 1)};
      r(k) = solver(a, b)[0] - t.speed;
    }
    return r;
  };
  Eigen::VectorXd r = residuals(x);
  double cost = r.squaredNorm(), lambda = 1e-3;
  for (int iteration = 0; iteration < 100 && lambda < 1e8; ++iteration) {
    Eigen::MatrixXd jacobian(m, n);
    for (Eigen::Index c = 0; c < n; ++c) {
      constexpr double h = 1e-7;
      Eigen::VectorXd up = x, down = x;
      up(c) = clamp_demand(x(c) + h);
      down(c) = clamp_demand(x(c) - h);
      jacobian.col(c) = (residuals(up) - residuals(down)) / (up(c) - down(c));
    }
    Eigen::MatrixXd a(m + n, n);
    a << jacobian, std::sqrt(lambda) * Eigen::MatrixXd::Identity(n, n);
    Eigen::VectorXd b(m + n);
    b << -r, Eigen::VectorXd::Zero(n);
    const Eigen::VectorXd step = a.colPivHouseholderQr().solve(b);
    Eigen::VectorXd candidate = x + step;
    for (Eigen::Index c = 0; c < n; ++c) candidate(c) = clamp_demand(candidate(c));
    const Eigen::VectorXd candidate_r = residuals(candidate);
    if (candidate_r.squaredNorm() < cost - 1e-15) {
      x = candidate;
      r = candidate_r;
      cost = r.squaredNorm();
      lambda = std::max(lambda / 10, 1e-12);
    } else {
      lambda *= 10;
    }
    if (step.norm() < 1e-12) break;
  }
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    profiles[jobs[j]].sm = x(2 * static_cast<Eigen::Index>(j));
    profiles[jobs[j]].bw = x(2 * static_cast<Eigen::Index>(j) + 1);
  }
}

}  // namespace

void fit_profiles(std::vector<WorkloadProfile>& profiles, const PairSolver& solver) {
  std::sort(profiles.begin(), profiles.end(),
            [](const WorkloadProfile& a, const WorkloadProfile& b) { return a.name < b.name; });
  const auto residuals_of = [&](const WorkloadProfile& p, std::vector<SliceObservation>& slices,
                                std::vector<PairObservation>& pairs) {
    slices = slice_observations(p);
    pairs = pair_observations(p, profiles);
    const Residuals a = slice_residuals(slices), b = pair_residuals(pairs, solver);
    return Residuals([a, b](FitDemand x, std::vector<double>& out) {
      a(x, out);
      b(x, out);
    });
  };
  const auto has_pairs = [](const WorkloadProfile& p) { return p.pair_throughput.count(kGavelFitGpu) > 0; };

  // Profiles without pair measurements depend on nobody: one fit each. Profiles with pair
  // measurements depend on their partners: alternate, in name order, from the defaults.
  for (WorkloadProfile& p : profiles) {
    p.sm = 1.0;
    p.bw = 0.5;
  }
  for (int round = 0; round < kGavelFitRounds; ++round) {
    for (WorkloadProfile& p : profiles) {
      if (round > 0 && !has_pairs(p)) continue;
      std::vector<SliceObservation> slices;
      std::vector<PairObservation> pairs;
      const Residuals residuals = residuals_of(p, slices, pairs);
      if (slices.empty() && pairs.empty()) continue;
      const FitDemand x = fit_residuals(residuals);
      p.sm = x.sm;
      p.bw = x.bw;
    }
  }
  refine_jointly(profiles, solver);
  for (WorkloadProfile& p : profiles) {
    p.sm = round_demand(p.sm);
    p.bw = round_demand(p.bw);
  }
  // The reported errors are those of the rounded demands, as written.
  for (WorkloadProfile& p : profiles) {
    const std::vector<SliceObservation> slices = slice_observations(p);
    const std::vector<PairObservation> pairs = pair_observations(p, profiles);
    // Its own speeds only: on each slice, and beside each partner.
    std::vector<double> predicted, measured;
    const FitDemand x{p.sm, p.bw};
    for (const SliceObservation& o : slices) {
      predicted.push_back(slice_speed(x, o));
      measured.push_back(o.speed);
    }
    for (const PairObservation& o : pairs) {
      predicted.push_back(solver(x, o.self_pair ? x : o.partner)[0]);
      measured.push_back(o.speed);
    }
    const ErrorSummary summary = relative_errors(predicted, measured);
    const bool miso = !slices.empty() || !p.mig_latency_s.empty();
    const bool gavel = !p.pair_throughput.empty() || !p.isolated_throughput.empty();
    p.fit.data = miso && gavel ? "miso+gavel" : (miso ? "miso" : "gavel");
    std::string on;
    if (!slices.empty()) {
      on = "speed relative to 7g.40gb on the A100-40GB MIG slices measured (" + std::to_string(slices.size()) +
           " of 4g.20gb, 3g.20gb, 2g.10gb, 1g.5gb)";
    }
    if (!pairs.empty()) {
      on += std::string(on.empty() ? "" : "; ") + "speed beside each partner relative to alone on " + kGavelFitGpu +
            " (" + std::to_string(pairs.size()) + " pairs), partners at their fitted demands";
    }
    p.fit.fitted_on = on.empty() ? "nothing: no measurements, default demand" : on;
    p.fit.measurements = summary.count;
    p.fit.rms_rel_error = round_to(summary.rms, 6);
    p.fit.max_rel_error = round_to(summary.max, 6);
  }
}

std::string fit_report_markdown(const std::vector<WorkloadProfile>& profiles) {
  std::vector<const WorkloadProfile*> sorted;
  for (const WorkloadProfile& p : profiles) sorted.push_back(&p);
  std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->name < b->name; });
  std::string out =
      "| profile | data | n | sm | bw | RMS rel. error | max rel. error |\n|---|---|---|---|---|---|---|\n";
  std::map<std::string, std::vector<std::pair<double, std::string>>> by_data;
  for (const WorkloadProfile* p : sorted) {
    out += "| " + p->name + " | " + p->fit.data + " | " + std::to_string(p->fit.measurements) + " | " +
           format_fixed(p->sm, 4) + " | " + format_fixed(p->bw, 4) + " | " + format_fixed(p->fit.rms_rel_error, 4) +
           " | " + format_fixed(p->fit.max_rel_error, 4) + " |\n";
    if (p->fit.measurements > 0) by_data[p->fit.data].emplace_back(p->fit.rms_rel_error, p->name);
  }
  out += "\n";
  for (auto& [data, values] : by_data) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    const double median = n % 2 == 1 ? values[n / 2].first : (values[n / 2 - 1].first + values[n / 2].first) / 2;
    out += data + ": " + std::to_string(n) + " profiles, median RMS rel. error " + format_fixed(median, 4) +
           ", worst " + format_fixed(values.back().first, 4) + " (" + values.back().second + ")\n";
  }
  // Two tasks under the contention model each get at least half of a saturated resource, so
  // no pair speed below 0.5 can be reproduced.
  std::size_t pairs = 0, below_half = 0;
  for (const WorkloadProfile* p : sorted) {
    const auto table = p->pair_throughput.find(kGavelFitGpu);
    if (table == p->pair_throughput.end()) continue;
    for (const auto& [partner, value] : table->second) {
      ++pairs;
      below_half += *p->pair_speed(kGavelFitGpu, partner) < 0.5;
    }
  }
  if (pairs > 0) {
    out += "gavel " + std::string(kGavelFitGpu) + " pair speeds: " + std::to_string(below_half) + " of " +
           std::to_string(pairs) + " below 0.5 (the model's floor for two tasks)\n";
  }
  return out;
}

void write_profile_files(const std::vector<WorkloadProfile>& profiles, const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, std::string>> files;
  for (const WorkloadProfile& p : profiles) files.emplace_back(p.name + ".json", profile_to_json(p).dump(2) + "\n");
  // Every target is checked before the first file is written, so that the common failures (a
  // target that is a directory, a folder that cannot be written) leave the folder as it was.
  // Each file is still written atomically on its own, one after another: a set of files cannot
  // be renamed into place in one step, so a failure during the writes themselves (a full disk)
  // or a kill can leave some files new and the others as they were.
  std::error_code ec;
  const fs::file_status folder = fs::status(dir, ec);
  if (fs::exists(folder)) {
    if (!fs::is_directory(folder)) throw InputError(dir, "", "expected an output directory, found a file");
    if (access(dir.c_str(), W_OK | X_OK) != 0) {
      throw InputError(dir, "", std::string("cannot write into this directory: ") + std::strerror(errno));
    }
    for (const auto& [name, content] : files) {
      const std::string path = (fs::path(dir) / name).string();
      const fs::file_status target = fs::status(path, ec);
      if (!fs::exists(target) || fs::is_regular_file(target)) continue;
      throw InputError(path, "",
                       fs::is_directory(target) ? "cannot write: it is a directory, not a file"
                                                : "cannot write: it is a FIFO, socket or device, not a regular file");
    }
  }
  fs::create_directories(dir, ec);
  if (ec) throw InputError(dir, "", "cannot create output directory: " + ec.message());
  for (const auto& [name, content] : files) write_file_atomically((fs::path(dir) / name).string(), content);
}

}  // namespace sharesim
