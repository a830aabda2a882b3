#include "workloads/profiles/interference_validation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "sim/input/error_text.h"

namespace sharesim {

namespace {

constexpr int kOuterFolds = 10;
constexpr int kInnerFolds = 5;
constexpr int kProbePairs = 3;

// Quantile of sorted values by linear interpolation between closest ranks (Hyndman & Fan
// definition 7, as sim/metrics/percentiles.h).
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(position));
  const std::size_t upper = std::min(lower + 1, sorted.size() - 1);
  return sorted[lower] + (position - static_cast<double>(lower)) * (sorted[upper] - sorted[lower]);
}

// A fixed permutation (splitmix64-driven Fisher-Yates): the folds are the same on every platform.
std::vector<std::size_t> shuffled(std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::uint64_t state = seed;
  const auto next = [&state] {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[next() % i]);
  return order;
}

// fold[i] of each of `items` (k folds, round robin over a fixed permutation).
std::vector<int> assign_folds(std::size_t items, int k, std::uint64_t seed) {
  std::vector<int> fold(items);
  const std::vector<std::size_t> order = shuffled(items, seed);
  for (std::size_t r = 0; r < items; ++r) fold[order[r]] = static_cast<int>(r % static_cast<std::size_t>(k));
  return fold;
}

std::vector<CorunObservation> observations_of(const PairTable& table, std::span<const std::size_t> pairs) {
  std::vector<CorunObservation> out;
  for (std::size_t p : pairs) {
    const MeasuredPair& m = table.pairs[p];
    out.push_back({m.a, {m.b}, m.speed_a});
    if (m.a != m.b) out.push_back({m.b, {m.a}, m.speed_b});
  }
  return out;
}

std::array<double, 2> predict_pair(const std::vector<InterferenceParams>& params, const MeasuredPair& m,
                                   const ConcurrentSolver& solver) {
  const std::array<InterferenceParams, 2> pair{params[m.a], params[m.b]};
  const std::vector<double> rates = solver(pair);
  return {rates[0], rates[1]};
}

double median_abs_rel(const PairTable& table, std::span<const std::size_t> pairs,
                      const std::vector<InterferenceParams>& params, const ConcurrentSolver& solver) {
  std::vector<double> errors;
  for (std::size_t p : pairs) {
    const MeasuredPair& m = table.pairs[p];
    const std::array<double, 2> s = predict_pair(params, m, solver);
    errors.push_back(std::abs(s[0] - m.speed_a) / m.speed_a);
    if (m.a != m.b) errors.push_back(std::abs(s[1] - m.speed_b) / m.speed_b);
  }
  std::sort(errors.begin(), errors.end());
  return quantile(errors, 0.5);
}

std::vector<std::size_t> all_indices(std::size_t n) {
  std::vector<std::size_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = i;
  return out;
}

std::string metrics_cells(const PairMetrics& m) {
  return std::to_string(m.pairs) + " | " + std::to_string(m.speeds) + " | " + format_fixed(m.median_abs_rel, 3) +
         " | " + format_fixed(m.p90_abs_rel, 3) + " | " + format_fixed(100 * m.order_accuracy, 1) + "% | " +
         format_fixed(m.combined_median_abs_rel, 3) + " | " + format_fixed(100 * m.pack_accuracy, 1) + "% | " +
         std::to_string(m.did_not_fit) + " | " + format_fixed(100 * m.pack_accuracy_all, 1) + "%";
}

std::vector<std::array<double, 2>> predict_unfit(const std::vector<InterferenceParams>& params,
                                                 std::span<const UnfitPair> pairs, const ConcurrentSolver& solver) {
  std::vector<std::array<double, 2>> out;
  for (const UnfitPair& u : pairs) out.push_back(predict_pair(params, MeasuredPair{u.a, u.b, 0, 0}, solver));
  return out;
}

}  // namespace

PairTable gavel_pair_table(const std::vector<WorkloadProfile>& profiles, std::string_view gpu,
                           std::span<const GavelUnfitPair> did_not_fit) {
  PairTable table;
  table.gpu = std::string(gpu);
  std::vector<const WorkloadProfile*> measured;
  // A job measured there: alone, and beside a partner (fitting or not; on K80 Gavel's ResNet-50
  // batch 128 fits beside no job, not even its own type).
  const auto in_unfit_pair = [&](const std::string& name) {
    return std::any_of(did_not_fit.begin(), did_not_fit.end(), [&](const GavelUnfitPair& u) {
      return u.gpu == table.gpu && (u.job == name || u.partner == name);
    });
  };
  for (const WorkloadProfile& p : profiles) {
    if (p.isolated_throughput.count(table.gpu) == 0) continue;
    if (p.pair_throughput.count(table.gpu) == 0 && !in_unfit_pair(p.name)) continue;
    measured.push_back(&p);
  }
  std::sort(measured.begin(), measured.end(),
            [](const WorkloadProfile* x, const WorkloadProfile* y) { return x->name < y->name; });
  std::map<std::string, std::uint32_t> index;
  for (const WorkloadProfile* p : measured) {
    index[p->name] = static_cast<std::uint32_t>(table.jobs.size());
    table.jobs.push_back(p->name);
  }
  for (const WorkloadProfile* p : measured) {
    const auto pairs = p->pair_throughput.find(table.gpu);
    if (pairs == p->pair_throughput.end()) continue;
    for (const auto& [partner, value] : pairs->second) {
      const auto other = index.find(partner);
      if (other == index.end() || partner < p->name) continue;  // each pair once, from its first job
      const WorkloadProfile* q = measured[other->second];
      table.pairs.push_back({index[p->name], other->second, value.own / p->isolated_throughput.at(table.gpu),
                             value.partner / q->isolated_throughput.at(table.gpu)});
    }
  }
  for (const GavelUnfitPair& u : did_not_fit) {
    if (u.gpu != table.gpu) continue;
    const auto a = index.find(u.job), b = index.find(u.partner);
    if (a == index.end() || b == index.end()) continue;  // not among `profiles`
    table.did_not_fit.push_back({std::min(a->second, b->second), std::max(a->second, b->second)});
  }
  return table;
}

PairMetrics pair_metrics(const PairTable& table, std::span<const std::array<double, 2>> predicted,
                         std::span<const std::array<double, 2>> predicted_did_not_fit) {
  if (predicted.size() != table.pairs.size() || predicted_did_not_fit.size() != table.did_not_fit.size()) {
    throw std::invalid_argument("pair_metrics: " + std::to_string(predicted.size()) + " and " +
                                std::to_string(predicted_did_not_fit.size()) + " predictions for " +
                                std::to_string(table.pairs.size()) + " pairs and " +
                                std::to_string(table.did_not_fit.size()) + " that did not fit");
  }
  PairMetrics out;
  std::vector<double> errors, combined;
  std::size_t ordered = 0, order_right = 0, pack_right = 0;
  for (std::size_t i = 0; i < table.pairs.size(); ++i) {
    const MeasuredPair& m = table.pairs[i];
    const std::array<double, 2>& s = predicted[i];
    errors.push_back(std::abs(s[0] - m.speed_a) / m.speed_a);
    double measured_sum = m.speed_a, predicted_sum = s[0];
    if (m.a != m.b) {
      errors.push_back(std::abs(s[1] - m.speed_b) / m.speed_b);
      if (m.speed_a != m.speed_b) {
        ++ordered;
        order_right += (s[0] < s[1]) == (m.speed_a < m.speed_b) && s[0] != s[1];
      }
    }
    measured_sum += m.speed_b;
    predicted_sum += s[1];
    combined.push_back(std::abs(predicted_sum - measured_sum) / measured_sum);
    pack_right += (predicted_sum > 1) == (measured_sum > 1);
  }
  std::sort(errors.begin(), errors.end());
  std::sort(combined.begin(), combined.end());
  out.pairs = table.pairs.size();
  out.speeds = errors.size();
  out.median_abs_rel = quantile(errors, 0.5);
  out.p90_abs_rel = quantile(errors, 0.9);
  out.order_accuracy = ordered == 0 ? 0 : static_cast<double>(order_right) / static_cast<double>(ordered);
  out.combined_median_abs_rel = quantile(combined, 0.5);
  out.pack_accuracy = out.pairs == 0 ? 0 : static_cast<double>(pack_right) / static_cast<double>(out.pairs);
  // A pair that did not fit cannot be packed: right where the model does not say "pack".
  std::size_t unfit_right = 0;
  for (const std::array<double, 2>& s : predicted_did_not_fit) unfit_right += !(s[0] + s[1] > 1);
  out.did_not_fit = table.did_not_fit.size();
  const std::size_t all = out.pairs + out.did_not_fit;
  out.pack_accuracy_all = all == 0 ? 0 : static_cast<double>(pack_right + unfit_right) / static_cast<double>(all);
  return out;
}

std::vector<Hyperparameters> hyperparameter_grid() {
  std::vector<Hyperparameters> grid;
  for (int rank = 1; rank <= static_cast<int>(kLatentDims); ++rank) {
    for (double regularisation : {0.003, 0.03, 0.3}) grid.push_back({rank, regularisation});
  }
  return grid;
}

std::vector<InterferenceParams> fit_pairs_subset(const PairTable& table, std::span<const std::size_t> train,
                                                 Hyperparameters h) {
  const std::vector<CorunObservation> observations = observations_of(table, train);
  const std::vector<JobMasks> masks(table.jobs.size(), JobMasks{latent_mask(h.rank), latent_mask(h.rank)});
  return fit_interference(observations, masks, InterferenceFitSettings{h.regularisation});
}

Hyperparameters choose_hyperparameters(const PairTable& table, std::span<const std::size_t> train,
                                       const ConcurrentSolver& solver) {
  const std::vector<int> fold = assign_folds(train.size(), kInnerFolds, 0x1234 + train.size());
  Hyperparameters best;
  double best_error = std::numeric_limits<double>::infinity();
  for (const Hyperparameters& h : hyperparameter_grid()) {
    std::vector<double> fold_errors;
    double total = 0;
    for (int f = 0; f < kInnerFolds; ++f) {
      std::vector<std::size_t> inner_train, inner_test;
      for (std::size_t i = 0; i < train.size(); ++i) (fold[i] == f ? inner_test : inner_train).push_back(train[i]);
      const std::vector<InterferenceParams> params = fit_pairs_subset(table, inner_train, h);
      total += median_abs_rel(table, inner_test, params, solver);
    }
    if (total < best_error - 1e-12) {
      best_error = total;
      best = h;
    }
  }
  return best;
}

Hyperparameters choose_hyperparameters_all(const PairTable& table, const ConcurrentSolver& solver) {
  const std::vector<std::size_t> all = all_indices(table.pairs.size());
  return choose_hyperparameters(table, all, solver);
}

GavelValidation validate_gavel(const std::vector<WorkloadProfile>& gavel_profiles, const ConcurrentSolver& solver,
                               bool quick, std::span<const GavelUnfitPair> did_not_fit) {
  GavelValidation v;
  const PairTable table = gavel_pair_table(gavel_profiles, "v100", did_not_fit);
  const std::size_t n = table.pairs.size();
  const std::size_t n_unfit = table.did_not_fit.size();
  std::vector<std::array<double, 2>> predicted(n), predicted_unfit(n_unfit);

  // Fitted on every V100 pair with the hyperparameters chosen on them (inner split): the shipped
  // parameters; in sample, cross-GPU, and the held-out fit for a pair that did not fit under
  // leave one pair out (its training set is every fitting pair).
  v.shipped = choose_hyperparameters_all(table, solver);
  const std::vector<std::size_t> all = all_indices(n);
  const std::vector<InterferenceParams> params = fit_pairs_subset(table, all, v.shipped);

  if (!quick) {
    // 10-fold over pairs; each fold's hyperparameters from an inner split of its training pairs.
    // The pairs that did not fit are never trained on; a second fixed permutation puts each in a
    // fold, whose fit predicts it (the fitting pairs' folds are as without them).
    const std::vector<int> fold = assign_folds(n, kOuterFolds, 42);
    const std::vector<int> unfit_fold = assign_folds(n_unfit, kOuterFolds, 43);
    std::vector<Hyperparameters> fold_hyper(kOuterFolds);
    for (int f = 0; f < kOuterFolds; ++f) {
      std::vector<std::size_t> train, test;
      for (std::size_t i = 0; i < n; ++i) (fold[i] == f ? test : train).push_back(i);
      fold_hyper[static_cast<std::size_t>(f)] = choose_hyperparameters(table, train, solver);
      const std::vector<InterferenceParams> fold_params =
          fit_pairs_subset(table, train, fold_hyper[static_cast<std::size_t>(f)]);
      for (std::size_t p : test) predicted[p] = predict_pair(fold_params, table.pairs[p], solver);
      for (std::size_t q = 0; q < n_unfit; ++q) {
        if (unfit_fold[q] == f) predicted_unfit[q] = predict_unfit(fold_params, {&table.did_not_fit[q], 1}, solver)[0];
      }
    }
    v.v100.push_back(
        {"10-fold over pairs", pair_metrics(table, predicted, predicted_unfit), "inner 5-fold choice per fold"});

    // Leave one pair out (both directions together), with the hyperparameters chosen for the
    // 10-fold fold that holds the pair (chosen without it). A pair that did not fit is in no
    // training set: it is predicted by the fit on all fitting pairs, hyperparameters chosen on them.
    for (std::size_t p = 0; p < n; ++p) {
      std::vector<std::size_t> train;
      for (std::size_t i = 0; i < n; ++i) {
        if (i != p) train.push_back(i);
      }
      const std::vector<InterferenceParams> pair_params =
          fit_pairs_subset(table, train, fold_hyper[static_cast<std::size_t>(fold[p])]);
      predicted[p] = predict_pair(pair_params, table.pairs[p], solver);
    }
    predicted_unfit = predict_unfit(params, table.did_not_fit, solver);
    v.v100.insert(v.v100.begin(), ValidationRow{"leave one pair out", pair_metrics(table, predicted, predicted_unfit),
                                                "hyperparameters of the 10-fold fold holding the pair"});

    // Leave one job out: its pairs are never seen (0 probes), or 3 of them are (3 probes). Both
    // use the hyperparameters chosen by the inner split of the pairs without the job. Its pairs
    // that did not fit are predicted with its held-out parameters (never probes: no speeds).
    std::array<PairTable, 2> held{PairTable{table.gpu, table.jobs, {}, {}}, PairTable{table.gpu, table.jobs, {}, {}}};
    std::array<std::vector<std::array<double, 2>>, 2> held_predicted, held_predicted_unfit;
    for (std::uint32_t job = 0; job < table.jobs.size(); ++job) {
      std::vector<std::size_t> train, own;
      for (std::size_t i = 0; i < n; ++i) {
        const bool involves = table.pairs[i].a == job || table.pairs[i].b == job;
        (involves ? own : train).push_back(i);
      }
      std::vector<UnfitPair> own_unfit;
      for (const UnfitPair& u : table.did_not_fit) {
        if (u.a == job || u.b == job) own_unfit.push_back(u);
      }
      const Hyperparameters h = choose_hyperparameters(table, train, solver);
      std::vector<InterferenceParams> job_params = fit_pairs_subset(table, train, h);
      std::vector<std::uint32_t> others;
      for (std::uint32_t j = 0; j < table.jobs.size(); ++j) {
        if (j != job) others.push_back(j);
      }
      job_params[job] = mean_params(job_params, others);
      for (std::size_t p : own) {
        held[0].pairs.push_back(table.pairs[p]);
        held_predicted[0].push_back(predict_pair(job_params, table.pairs[p], solver));
      }
      for (const std::array<double, 2>& s : predict_unfit(job_params, own_unfit, solver)) {
        held_predicted_unfit[0].push_back(s);
      }
      held[0].did_not_fit.insert(held[0].did_not_fit.end(), own_unfit.begin(), own_unfit.end());
      // 3 probe pairs with other jobs, drawn by a fixed permutation; the rest are predicted.
      std::vector<std::size_t> probe_pairs, test;
      const std::vector<std::size_t> order = shuffled(own.size(), 7 + job);
      for (std::size_t r = 0; r < own.size(); ++r) {
        const MeasuredPair& m = table.pairs[own[order[r]]];
        const bool probe = probe_pairs.size() < static_cast<std::size_t>(kProbePairs) && m.a != m.b;
        (probe ? probe_pairs : test).push_back(own[order[r]]);
      }
      const std::vector<CorunObservation> observations = observations_of(table, probe_pairs);
      fit_one_job(observations, job, JobMasks{latent_mask(h.rank), latent_mask(h.rank)},
                  InterferenceFitSettings{h.regularisation}, job_params);
      for (std::size_t p : test) {
        held[1].pairs.push_back(table.pairs[p]);
        held_predicted[1].push_back(predict_pair(job_params, table.pairs[p], solver));
      }
      for (const std::array<double, 2>& s : predict_unfit(job_params, own_unfit, solver)) {
        held_predicted_unfit[1].push_back(s);
      }
      held[1].did_not_fit.insert(held[1].did_not_fit.end(), own_unfit.begin(), own_unfit.end());
    }
    // A pair of two jobs is counted once for each of them it holds out.
    v.v100.push_back({"leave one job out, 0 probe pairs",
                      pair_metrics(held[0], held_predicted[0], held_predicted_unfit[0]),
                      "held-out job = mean of the others' parameters"});
    v.v100.push_back({"leave one job out, 3 probe pairs",
                      pair_metrics(held[1], held_predicted[1], held_predicted_unfit[1]),
                      "its parameters fitted on 3 of its pairs, the others fixed"});
  }

  // In sample and cross-GPU: fitted on every V100 pair with the hyperparameters chosen on them.
  for (std::size_t p = 0; p < n; ++p) predicted[p] = predict_pair(params, table.pairs[p], solver);
  predicted_unfit = predict_unfit(params, table.did_not_fit, solver);
  v.v100.push_back(
      {"in sample (all pairs fitted)", pair_metrics(table, predicted, predicted_unfit), "not a held-out figure"});
  for (const char* gpu : {"p100", "k80"}) {
    const PairTable other = gavel_pair_table(gavel_profiles, gpu, did_not_fit);
    PairTable mapped{gpu, table.jobs, {}, {}};
    std::vector<std::array<double, 2>> cross;
    const auto on_v100 = [&](std::uint32_t job) -> std::optional<std::uint32_t> {
      const auto it = std::find(table.jobs.begin(), table.jobs.end(), other.jobs[job]);
      if (it == table.jobs.end()) return std::nullopt;
      return static_cast<std::uint32_t>(it - table.jobs.begin());
    };
    for (const MeasuredPair& m : other.pairs) {
      const auto a = on_v100(m.a), b = on_v100(m.b);
      if (!a || !b) continue;
      MeasuredPair copy{*a, *b, m.speed_a, m.speed_b};
      mapped.pairs.push_back(copy);
      cross.push_back(predict_pair(params, copy, solver));
    }
    for (const UnfitPair& u : other.did_not_fit) {
      const auto a = on_v100(u.a), b = on_v100(u.b);
      if (a && b) mapped.did_not_fit.push_back({*a, *b});
    }
    v.cross_gpu.push_back({std::string(gpu) + " (V100 parameters)",
                           pair_metrics(mapped, cross, predict_unfit(params, mapped.did_not_fit, solver)),
                           "never fitted"});
  }
  return v;
}

Hyperparameters fit_profile_interference(std::vector<WorkloadProfile>& profiles, const ConcurrentSolver& solver) {
  const PairTable table = gavel_pair_table(profiles, "v100");
  const Hyperparameters h = choose_hyperparameters_all(table, solver);
  const std::vector<std::size_t> all = all_indices(table.pairs.size());
  const std::vector<InterferenceParams> params = fit_pairs_subset(table, all, h);
  const double scale = std::pow(10.0, kInterferenceDigits);
  const auto round = [scale](double v) { return std::round(v * scale) / scale; };
  for (WorkloadProfile& p : profiles) {
    const auto it = std::find(table.jobs.begin(), table.jobs.end(), p.name);
    if (it == table.jobs.end()) continue;
    InterferenceParams rounded = params[static_cast<std::size_t>(it - table.jobs.begin())];
    for (std::size_t k = 0; k < kInterferenceDims; ++k) {
      rounded.sensitivity[k] = round(rounded.sensitivity[k]);
      rounded.pressure[k] = round(rounded.pressure[k]);
    }
    p.interference = rounded;
  }
  return h;
}

std::string gavel_validation_markdown(const GavelValidation& v) {
  std::ostringstream out;
  out << "| split | pairs | speeds | median abs rel err | p90 abs rel err | slower job right | combined median abs "
         "rel err | pack-or-not right | did-not-fit pairs | pack-or-not right, did-not-fit pairs counted | note "
         "|\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const ValidationRow& row : v.v100)
    out << "| V100 " << row.split << " | " << metrics_cells(row.metrics) << " | " << row.note << " |\n";
  for (const ValidationRow& row : v.cross_gpu)
    out << "| " << row.split << " | " << metrics_cells(row.metrics) << " | " << row.note << " |\n";
  out << "\nShipped hyperparameters (inner 5-fold on all V100 pairs): rank " << v.shipped.rank << ", regularisation "
      << format_number(v.shipped.regularisation) << "\n";
  return out.str();
}

}  // namespace sharesim
