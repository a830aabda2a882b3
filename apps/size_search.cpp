#include "apps/size_search.h"

#include <charconv>
#include <cmath>
#include <map>

#include "apps/scenario_run.h"
#include "apps/sharing_variant.h"
#include "apps/sweep_spec.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

// The runs of one size: the pool at `nodes` nodes, the variant applied, once per seed.
// A node count and what set it, for the override's source.
struct PoolSize {
  std::int64_t nodes;
  const char* source;
};

// The scenario with the request's --set, the pool at `size`, `variant`'s sharing (null: the
// scenario's own) and `extra` (a run's seed). The variant's sharing goes in before loading: the
// loader's check that the cluster can hold every gang must see the pools as the variant shares
// them. Applied after loading, 4 exclusive GPUs refused a 5-pod gang that 16 time-slicing
// replicas hold.
Scenario scenario_at_size(const SizeRequest& request, const GpuCatalog& catalog, std::size_t pool_index,
                          PoolSize size, const SharingVariant* variant, const std::vector<Override>& extra) {
  std::vector<Override> overrides = request.sets;
  overrides.push_back(
      {"cluster.node_pools." + std::to_string(pool_index) + ".nodes", std::to_string(size.nodes), size.source});
  if (variant != nullptr) {
    const std::vector<Override> sharing = sharing_variant_overrides(*variant);
    overrides.insert(overrides.end(), sharing.begin(), sharing.end());
  }
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  Scenario scenario = load_scenario_file(request.scenario_path, catalog, overrides);
  if (variant != nullptr) scenario = apply_sharing_variant(scenario, *variant);
  return scenario;
}

class SizeEvaluator {
 public:
  // `variant` null: the scenario's own sharing. `base`: the scenario as loaded, for naming the
  // variant in an error.
  SizeEvaluator(const SizeRequest& request, const GpuCatalog& catalog, const Scenario& base, std::size_t pool_index,
                const SharingVariant* variant, const std::function<void(const PoolProgress&)>& progress)
      : request_(request),
        catalog_(catalog),
        base_(base),
        pool_index_(pool_index),
        variant_(variant),
        progress_(progress) {}

  const SizeEvaluation& evaluate(std::int64_t nodes) {
    const auto known = cache_.find(nodes);
    if (known != cache_.end()) return known->second;
    SizeEvaluation evaluation;
    evaluation.nodes = nodes;
    std::vector<Scenario> scenarios;
    const bool loaded = holds_workload(evaluation, [&] {
      for (std::uint64_t seed : request_.seeds) {
        scenarios.push_back(scenario_at_size(request_, catalog_, pool_index_, {nodes, "the size search"}, variant_,
                                             {{"seed", std::to_string(seed), "--seeds"}}));
      }
    });
    if (!loaded) return remember(std::move(evaluation));
    std::vector<PooledRun> runs;
    for (const Scenario& scenario : scenarios) {
      runs.push_back({&scenario, sweep_run_dir(request_.output_dir, sweep_run_id(scenario))});
    }
    if (!targets_checked_) {
      // The first run alone, so that a --target naming no metric is said before the others run
      // (run_pool below finds it finished).
      if (!holds_workload(evaluation, [&] { run_pool({runs.front()}, catalog_, 1); })) {
        return remember(std::move(evaluation));
      }
      const nlohmann::ordered_json summary = read_run_summary(runs.front().dir);
      for (const SizeTarget& target : request_.targets) {
        const std::string problem = metric_path_problem(summary, runs.front().dir, target.metric);
        if (!problem.empty()) throw InputError("--target", target.text, problem);
      }
      targets_checked_ = true;
    }
    if (!holds_workload(evaluation, [&] { run_pool(runs, catalog_, request_.threads, progress_); })) {
      return remember(std::move(evaluation));
    }
    evaluation.meets = true;
    for (const SizeTarget& target : request_.targets) {
      std::vector<double> values;
      for (const PooledRun& run : runs) {
        const std::optional<double> value =
            metric_value(read_run_summary(run.dir), target.metric, run.dir + "/summary.json");
        if (value) values.push_back(*value);
      }
      const MetricStats stats = metric_stats(values);
      // No value in any seed (no request finished, no job completed): not met at this size.
      evaluation.meets = evaluation.meets && stats.n > 0 && target.met_by(stats.mean);
      evaluation.stats.push_back(stats);
    }
    return remember(std::move(evaluation));
  }

 private:
  const SizeEvaluation& remember(SizeEvaluation evaluation) {
    const std::int64_t nodes = evaluation.nodes;
    return cache_.emplace(nodes, std::move(evaluation)).first->second;
  }

  // Loads or runs one size's scenarios (`step`). A capacity error there (a gang wider than the
  // pool at this size, a pod no node holds) is an answer, not a mistake: the size is not met,
  // with that error as `cannot_hold`; at --max-nodes the variant then has no answer. Any other
  // input error is the scenario's or the variant's and stops the search, naming the variant.
  bool holds_workload(SizeEvaluation& evaluation, const std::function<void()>& step) {
    try {
      step();
      return true;
    } catch (const CapacityError& e) {
      evaluation.stats.resize(request_.targets.size());
      evaluation.cannot_hold = e.what();
      return false;
    } catch (const InputError& e) {
      if (variant_ != nullptr) rethrow_for_variant(e, base_, *variant_);
      throw;
    }
  }

  const SizeRequest& request_;
  const GpuCatalog& catalog_;
  const Scenario& base_;
  std::size_t pool_index_;
  const SharingVariant* variant_;
  const std::function<void(const PoolProgress&)>& progress_;
  std::map<std::int64_t, SizeEvaluation> cache_;
  bool targets_checked_ = false;
};

Json answer_json(const SizeAnswer& answer, const std::vector<SizeTarget>& targets) {
  Json json;
  if (!answer.variant.empty()) json["variant"] = answer.variant;
  json["met"] = answer.met;
  json["nodes"] = answer.met ? Json(answer.nodes) : Json(nullptr);
  json["gpus"] = answer.met ? Json(answer.gpus) : Json(nullptr);
  json["at_size"] = answer.at_size.to_json(targets);
  json["one_fewer"] = answer.one_fewer ? answer.one_fewer->to_json(targets) : Json(nullptr);
  json["ci_straddles"] = answer.straddles;
  json["tried"] = answer.tried;
  return json;
}

std::string stats_text(const MetricStats& stats) {
  if (stats.n == 0) return "no value";
  std::string text = format_fixed(stats.mean, 3);
  if (stats.ci95) text += " +- " + format_fixed(*stats.ci95, 3);
  return text;
}

}  // namespace

SizeTarget parse_size_target(const std::string& text) {
  SizeTarget target;
  target.text = text;
  std::size_t at = text.find("<=");
  if (at == std::string::npos) {
    at = text.find(">=");
    target.at_most = false;
  }
  const auto bad = [&]() {
    return InputError("--target", "",
                      "expected PATH<=NUMBER or PATH>=NUMBER with a dotted summary.json path (e.g. "
                      "\"metrics.jobs.wait_s.p95<=600\"), found " +
                          quote(text));
  };
  if (at == std::string::npos || at == 0) throw bad();
  target.metric = text.substr(0, at);
  const std::string number = text.substr(at + 2);
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), target.bound);
  if (number.empty() || ec != std::errc{} || end != number.data() + number.size() || !std::isfinite(target.bound)) {
    throw bad();
  }
  return target;
}

Json SizeEvaluation::to_json(const std::vector<SizeTarget>& targets) const {
  Json json;
  json["nodes"] = nodes;
  json["meets"] = meets;
  json["cannot_hold"] = cannot_hold.empty() ? Json(nullptr) : Json(cannot_hold);
  Json metrics = Json::object();
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const MetricStats& s = stats[t];
    metrics[targets[t].metric] = Json{{"n", s.n},
                                      {"mean", s.n > 0 ? Json(s.mean) : Json(nullptr)},
                                      {"sd", s.sd ? Json(*s.sd) : Json(nullptr)},
                                      {"ci95", s.ci95 ? Json(*s.ci95) : Json(nullptr)}};
  }
  json["metrics"] = std::move(metrics);
  return json;
}

std::vector<SizeAnswer> size_pool(const SizeRequest& request, const GpuCatalog& catalog,
                                  const std::function<void(const PoolProgress&)>& progress) {
  if (request.targets.empty()) throw InputError("--target", "", "expected at least one --target PATH<=X");
  if (request.seeds.empty()) throw InputError("--seeds", "", "expected at least one seed");
  const Scenario base = load_scenario_file(request.scenario_path, catalog, request.sets);
  std::size_t pool_index = base.node_pools.size();
  std::vector<std::string> names;
  for (std::size_t i = 0; i < base.node_pools.size(); ++i) {
    names.push_back(base.node_pools[i].name);
    if (base.node_pools[i].name == request.pool) pool_index = i;
  }
  if (pool_index == base.node_pools.size()) {
    const std::optional<std::string> suggestion = closest_match(request.pool, names);
    throw InputError(
        "--pool", "",
        "no node pool " + quote(request.pool) + " in " + request.scenario_path + "; " +
            (suggestion ? "did you mean " + quote(*suggestion) + "?" : "expected one of " + quoted_list(names)));
  }
  // Every variant first, so that a typo is reported before anything runs. The pools' GPUs and
  // names, all a variant's sharing depends on, are the same at every size.
  std::vector<SharingVariant> variants;
  for (const std::string& name : request.variants) variants.push_back(sharing_variant(base, name));
  const std::int64_t gpus_per_node = base.node_pools[pool_index].gpus_per_node;
  if (request.max_nodes < 1) {
    throw InputError("--max-nodes", "", "expected a node count >= 1, found " + std::to_string(request.max_nodes));
  }
  // Then every variant built (not run) at --max-nodes, the size that holds the most, so that a
  // variant's bad sharing (MIG on a GPU without it, a layout whose resource no pod asks for) is
  // said before any run, naming the variant as compare does. It used to surface only when that
  // variant's search reached --max-nodes, after every earlier variant's runs, without its name,
  // and at the scenario's own /cluster/node_pools/I/sharing. An error here at --max-nodes is
  // one the search would stop with anyway. A capacity error is not: the variant holds the
  // workload at no size up to --max-nodes (5 pods of 8 GPUs on 4 exclusive 8-GPU nodes), which
  // its search finds at every size and answers as not met; the other variants still get theirs.
  for (const SharingVariant& variant : variants) {
    try {
      const Scenario largest =
          scenario_at_size(request, catalog, pool_index, {request.max_nodes, "--max-nodes"}, &variant, {});
      const ScenarioRun check(largest, catalog);  // builds the cluster and the workload, runs nothing
    } catch (const CapacityError&) {
      // Not this variant's mistake: its search reports it.
    } catch (const InputError& e) {
      rethrow_for_variant(e, base, variant);
    }
  }

  std::vector<SizeAnswer> answers;
  const std::size_t searches = variants.empty() ? 1 : variants.size();
  for (std::size_t v = 0; v < searches; ++v) {
    const SharingVariant* variant = variants.empty() ? nullptr : &variants[v];
    SizeEvaluator evaluator(request, catalog, base, pool_index, variant, progress);
    SizeAnswer answer;
    answer.variant = variant == nullptr ? "" : variant->name;
    answer.gpus_per_node = gpus_per_node;
    // Gallop: 1, 2, 4, ... until a size meets every target; `failing` is the last that did not.
    std::int64_t failing = 0;
    std::int64_t meeting = 1;
    while (true) {
      answer.tried.push_back(meeting);
      if (evaluator.evaluate(meeting).meets) break;
      failing = meeting;
      if (meeting >= request.max_nodes) break;
      meeting = std::min(meeting * 2, request.max_nodes);
    }
    if (failing == meeting) {
      // Not even max_nodes meets every target: no answer for this variant.
      answer.met = false;
      answer.at_size = evaluator.evaluate(meeting);
      answers.push_back(std::move(answer));
      continue;
    }
    // Bisect between them.
    while (meeting - failing > 1) {
      const std::int64_t middle = failing + (meeting - failing) / 2;
      answer.tried.push_back(middle);
      if (evaluator.evaluate(middle).meets) {
        meeting = middle;
      } else {
        failing = middle;
      }
    }
    answer.nodes = meeting;
    answer.gpus = meeting * gpus_per_node;
    answer.at_size = evaluator.evaluate(meeting);
    if (meeting > 1) answer.one_fewer = evaluator.evaluate(meeting - 1);
    for (std::size_t t = 0; t < request.targets.size(); ++t) {
      for (const SizeEvaluation* e : {&answer.at_size, answer.one_fewer ? &*answer.one_fewer : nullptr}) {
        if (e == nullptr || !e->stats[t].ci95) continue;
        const MetricStats& s = e->stats[t];
        // Every seed giving the same value (ci95 0) leaves nothing to straddle, even at the bound.
        if (*s.ci95 > 0 && std::fabs(s.mean - request.targets[t].bound) <= *s.ci95) {
          answer.straddles.push_back(request.targets[t].text + " at " + std::to_string(e->nodes) + " nodes");
        }
      }
    }
    answers.push_back(std::move(answer));
  }
  return answers;
}

nlohmann::ordered_json size_json(const SizeRequest& request, const std::vector<SizeAnswer>& answers) {
  Json json;
  json["pool"] = request.pool;
  Json targets = Json::array();
  for (const SizeTarget& t : request.targets) {
    targets.push_back(Json{{"metric", t.metric}, {"op", t.at_most ? "<=" : ">="}, {"bound", t.bound}});
  }
  json["targets"] = std::move(targets);
  json["seeds"] = request.seeds;
  const Json first = answer_json(answers.front(), request.targets);
  for (auto it = first.begin(); it != first.end(); ++it) json[it.key()] = it.value();
  if (!request.variants.empty()) {
    Json list = Json::array();
    for (const SizeAnswer& answer : answers) list.push_back(answer_json(answer, request.targets));
    json["variants"] = std::move(list);
  }
  return json;
}

std::string size_text(const SizeRequest& request, const std::vector<SizeAnswer>& answers) {
  std::string out;
  for (const SizeAnswer& a : answers) {
    const std::string pool = "pool " + request.pool + (a.variant.empty() ? "" : " under " + a.variant) + ": ";
    if (!a.met && !a.at_size.cannot_hold.empty()) {
      out += pool + "no size up to " + count_of(a.at_size.nodes, "node", "nodes") + " could hold the workload (" +
             a.at_size.cannot_hold + ")\n";
      continue;
    }
    if (!a.met) {
      std::string line = pool + "no size up to " + count_of(a.at_size.nodes, "node", "nodes") +
                         " meets every target (at " + std::to_string(a.at_size.nodes) + ":";
      for (std::size_t t = 0; t < request.targets.size(); ++t) {
        line += (t == 0 ? " " : ", ") + request.targets[t].text + " mean " + stats_text(a.at_size.stats[t]) +
                (a.at_size.stats[t].n > 0 && request.targets[t].met_by(a.at_size.stats[t].mean) ? "" : " (missed)");
      }
      out += line + "); --max-nodes raises the limit\n";
      continue;
    }
    std::string line = pool + count_of(a.nodes, "node", "nodes") + " (" + count_of(a.gpus, "GPU", "GPUs") + ") meet";
    for (std::size_t t = 0; t < request.targets.size(); ++t) {
      line += (t == 0 ? " " : ", ") + request.targets[t].text + " (mean " + stats_text(a.at_size.stats[t]) + ")";
    }
    if (a.one_fewer && !a.one_fewer->cannot_hold.empty()) {
      line += "; " + count_of(a.one_fewer->nodes, "node", "nodes") + " could never hold the workload";
    } else if (a.one_fewer) {
      line += "; " + count_of(a.one_fewer->nodes, "node", "nodes") + " do not (";
      for (std::size_t t = 0; t < request.targets.size(); ++t) {
        line += (t == 0 ? "" : ", ") + stats_text(a.one_fewer->stats[t]);
      }
      line += ")";
    }
    out += line + "\n";
    for (const std::string& straddle : a.straddles) {
      out += "  note: the 95% confidence interval straddles " + straddle + "; more seeds would settle it\n";
    }
  }
  if (answers.size() > 1) {
    std::string table = "GPUs needed:";
    for (std::size_t i = 0; i < answers.size(); ++i) {
      const SizeAnswer& a = answers[i];
      table += (i == 0 ? " " : ", ") + a.variant + " " +
               (a.met ? std::to_string(a.gpus) : "none up to " + std::to_string(a.at_size.nodes * a.gpus_per_node));
    }
    out += table + "\n";
  }
  return out;
}

}  // namespace sharesim
