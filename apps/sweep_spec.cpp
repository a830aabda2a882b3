#include "apps/sweep_spec.h"

#include <charconv>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>

#include "apps/scenario_run.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"
#include "sim/input/json_reader.h"
#include "sim/scenario/scenario_overrides.h"
#include "sim/scenario/schema_validator.h"

namespace sharesim {
namespace embedded {
std::string_view sweep_schema();  // docs/sweep.schema.json, embedded by apps/CMakeLists.txt
}

namespace {

using Json = nlohmann::ordered_json;

constexpr std::uint64_t kMaxSeedRange = 100000;

std::uint64_t parse_seed(const std::string& text, const std::string& file, const std::string& where) {
  const auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value > max) {
    throw InputError(file, where, "expected an integer from 0 to " + std::to_string(max) + ", found " + quote(text));
  }
  return value;
}

// A seed listed twice would run one replicate twice (into one output folder, at once with -j)
// and count it twice in the mean and its interval.
void check_seeds_unique(const std::vector<std::uint64_t>& seeds, const std::string& file, const std::string& where) {
  std::map<std::uint64_t, int> seen;
  for (std::uint64_t seed : seeds) {
    if (++seen[seed] == 2) throw InputError(file, where, "seed " + std::to_string(seed) + " is listed twice");
  }
}

std::vector<std::uint64_t> spec_seeds(const Json& seeds, const std::string& file) {
  if (seeds.is_string()) return parse_seed_list(seeds.get<std::string>(), file, "/seeds");
  if (!seeds.is_array() || seeds.empty()) {
    throw InputError(file, "/seeds",
                     "expected \"FIRST-LAST\" (e.g. \"1-20\"), a comma list or a non-empty array of integers, found " +
                         seeds.dump());
  }
  std::vector<std::uint64_t> list;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    if (!seeds[i].is_number_unsigned()) {
      throw InputError(file, pointer_append("/seeds", i), "expected an integer >= 0, found " + seeds[i].dump());
    }
    list.push_back(seeds[i].get<std::uint64_t>());
  }
  check_seeds_unique(list, file, "/seeds");
  return list;
}

// Each scenario path varies in one place: a path in both grid and zip gave two columns of
// runs.csv and the zip's value won, and "seed" is the spec's /seeds (a grid of it was ignored).
void check_axis_paths(const Json& document, const std::string& file) {
  std::map<std::string, std::string> first_at;  // the path as a JSON pointer -> where it is in the spec
  for (const char* section : {"grid", "zip"}) {
    if (!document.contains(section)) continue;
    for (auto entry = document[section].begin(); entry != document[section].end(); ++entry) {
      const std::string where = pointer_append(std::string("/") + section, entry.key());
      const std::string pointer = override_pointer(Override{entry.key(), "", file});
      if (pointer == "/seed") {
        throw InputError(file, where, "the seeds are set by /seeds; expected a scenario path other than \"seed\"");
      }
      const auto [earlier, fresh] = first_at.emplace(pointer, where);
      if (!fresh) {
        throw InputError(file, where,
                         "the scenario path " + quote(entry.key()) + " also varies at " + earlier->second +
                             "; expected each path in one place");
      }
    }
  }
}

std::vector<SweepVariantSpec> spec_variants(const Json& variants, const std::string& file) {
  std::vector<SweepVariantSpec> list;
  if (variants.is_array() && !variants.empty()) {
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const std::string where = pointer_append("/variants", i);
      if (!variants[i].is_string()) {
        throw InputError(file, where,
                         "expected a variant name (a built-in policy or one of the scenario's "
                         "compare.variants), found " +
                             variants[i].dump());
      }
      for (const SweepVariantSpec& earlier : list) {
        if (earlier.name == variants[i].get<std::string>()) {
          throw InputError(file, where, "variant " + quote(earlier.name) + " is listed twice");
        }
      }
      list.push_back({variants[i].get<std::string>(), Json(), where});
    }
    return list;
  }
  if (variants.is_object() && !variants.empty()) {
    for (auto entry = variants.begin(); entry != variants.end(); ++entry) {
      list.push_back({entry.key(), entry.value(), pointer_append("/variants", entry.key())});
    }
    return list;
  }
  throw InputError(file, "/variants",
                   "expected a non-empty array of variant names or a non-empty object of name -> sharing object, "
                   "found " +
                       variants.dump());
}

void add_axes(const Json& spec, const std::string& key, bool zip, std::vector<SweepAxis>& axes,
              const std::string& file) {
  const auto section = spec.find(key);
  if (section == spec.end()) return;
  if (!zip) {
    for (auto entry = section->begin(); entry != section->end(); ++entry) {
      SweepAxis axis;
      axis.paths.push_back(entry.key());
      for (const Json& value : entry.value()) axis.values.push_back({value});
      axes.push_back(std::move(axis));
    }
    return;
  }
  if (section->empty()) return;
  SweepAxis axis;
  std::size_t length = section->begin().value().size();
  for (auto entry = section->begin(); entry != section->end(); ++entry) {
    if (entry.value().size() != length) {
      throw InputError(file, pointer_append("/zip", entry.key()),
                       "the zip lists vary together, so they need one length: expected " + std::to_string(length) +
                           " values (as " + quote(section->begin().key()) + "), found " +
                           std::to_string(entry.value().size()));
    }
    axis.paths.push_back(entry.key());
  }
  for (std::size_t k = 0; k < length; ++k) {
    std::vector<Json> step;
    for (auto entry = section->begin(); entry != section->end(); ++entry) step.push_back(entry.value()[k]);
    axis.values.push_back(std::move(step));
  }
  axes.push_back(std::move(axis));
}

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 14695981039346656037ull) {
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

// Where a grid or zip path is written in the spec.
std::string axis_pointer(const ScenarioSweepSpec& spec, const std::string& path) {
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    const bool zip = a + 1 == spec.axes.size() && spec.axes[a].paths.size() > 1;
    for (const std::string& p : spec.axes[a].paths) {
      if (p == path) return pointer_append(zip ? "/zip" : "/grid", path);
    }
  }
  return "/grid";
}

// Moves `step` to the next point, the last axis fastest; false after the last point.
bool advance(std::vector<std::size_t>& step, const std::vector<SweepAxis>& axes) {
  for (std::size_t a = axes.size(); a-- > 0;) {
    if (++step[a] < axes[a].values.size()) return true;
    step[a] = 0;
  }
  return false;
}

}  // namespace

std::vector<std::uint64_t> parse_seed_list(const std::string& text, const std::string& file, const std::string& where) {
  std::vector<std::uint64_t> seeds;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t dash = item.find('-');
    if (dash == std::string::npos) {
      seeds.push_back(parse_seed(item, file, where));
    } else {
      const std::uint64_t first = parse_seed(item.substr(0, dash), file, where);
      const std::uint64_t last = parse_seed(item.substr(dash + 1), file, where);
      if (last < first) {
        throw InputError(file, where, "expected a range FIRST-LAST with FIRST <= LAST, found " + quote(item));
      }
      if (last - first >= kMaxSeedRange) {
        throw InputError(file, where,
                         "expected a range of at most " + std::to_string(kMaxSeedRange) + " seeds, found " +
                             quote(item) + " (" + std::to_string(last - first + 1) + " seeds)");
      }
      for (std::uint64_t s = first; s <= last; ++s) seeds.push_back(s);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  check_seeds_unique(seeds, file, where);
  return seeds;
}

ScenarioSweepSpec load_sweep_spec(const std::string& path) {
  const Json document = parse_json_text(read_text_file(path), path);
  static const SchemaValidator validator(embedded::sweep_schema());
  const SchemaValidation validation = validator.validate(document);
  if (validation.violation) {
    throw InputError(path, where_of_pointer(validation.violation->pointer), validation.violation->problem);
  }

  ScenarioSweepSpec spec;
  spec.file = path;
  const std::filesystem::path scenario = document["scenario"].get<std::string>();
  spec.scenario_path =
      scenario.is_absolute() ? scenario.string() : (std::filesystem::path(path).parent_path() / scenario).string();
  // Named here, at /scenario: read later, a missing file was an error naming neither the spec
  // nor the place (and "" named nothing at all).
  const std::string scenario_problem = scenario.empty() ? "is empty" : regular_file_problem(spec.scenario_path);
  if (!scenario_problem.empty()) {
    throw InputError(path, "/scenario",
                     "expected a scenario file (relative to the spec's folder), found " + quote(scenario.string()) +
                         (scenario.empty() ? ", which " + scenario_problem
                                           : " (" + spec.scenario_path + ": " + scenario_problem + ")"));
  }
  spec.seeds = spec_seeds(document["seeds"], path);  // a seed listed twice is refused there
  check_axis_paths(document, path);
  add_axes(document, "grid", false, spec.axes, path);
  add_axes(document, "zip", true, spec.axes, path);
  if (document.contains("variants")) spec.variants = spec_variants(document["variants"], path);
  for (std::size_t i = 0; i < document["metrics"].size(); ++i) {
    const std::string metric = document["metrics"][i].get<std::string>();
    if (metric == "metrics.sim.wall_s" || metric == "/metrics/sim/wall_s") {
      throw InputError(path, pointer_append("/metrics", i),
                       "metrics.sim.wall_s is the wall-clock time, which differs from run to run, so its aggregate "
                       "could not be reproduced; choose a simulated figure");
    }
    // Compared as JSON pointers: "metrics.jobs.completed" and "/metrics/jobs/completed" are one.
    const std::string pointer = override_pointer(Override{metric, "", path});
    for (const std::string& earlier : spec.metrics) {
      if (override_pointer(Override{earlier, "", path}) == pointer) {
        throw InputError(path, pointer_append("/metrics", i),
                         quote(metric) + " is listed twice" + (earlier == metric ? "" : " (as " + quote(earlier) + ")"));
      }
    }
    spec.metrics.push_back(metric);
  }
  return spec;
}

std::string point_value_text(const Json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

std::string sweep_run_id(const Scenario& scenario) {
  std::uint64_t hash = fnv1a(sharesim_version());
  hash = fnv1a("\n", hash);
  hash = fnv1a(scenario.document.dump(), hash);
  hash = fnv1a("\nseed " + std::to_string(scenario.seed), hash);
  char text[17];
  static const char* digits = "0123456789abcdef";
  for (int i = 15; i >= 0; --i) {
    text[i] = digits[hash & 15u];
    hash >>= 4;
  }
  text[16] = '\0';
  return text;
}

ExpandedSweep expand_sweep(const ScenarioSweepSpec& spec, const GpuCatalog& catalog) {
  ExpandedSweep out;
  SweepPlan& plan = out.plan;
  for (const SweepAxis& axis : spec.axes)
    plan.point_paths.insert(plan.point_paths.end(), axis.paths.begin(), axis.paths.end());
  plan.has_variants = !spec.variants.empty();
  plan.metrics = spec.metrics;

  // Points: the cartesian product of the axes, the first axis slowest (odometer order).
  std::vector<std::size_t> step(spec.axes.size(), 0);
  std::map<std::string, std::size_t> first_with_id;
  do {
    std::vector<Override> overrides;
    std::vector<Json> point;
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
      const SweepAxis& axis = spec.axes[a];
      const bool zip = a + 1 == spec.axes.size() && axis.paths.size() > 1;
      for (std::size_t p = 0; p < axis.paths.size(); ++p) {
        const Json& value = axis.values[step[a]][p];
        point.push_back(value);
        overrides.push_back({axis.paths[p], value.dump(), std::string(zip ? "zip" : "grid") + " of " + spec.file});
      }
    }
    const auto load_point = [&](const std::vector<Override>& sharing) {
      std::vector<Override> all = overrides;
      all.insert(all.end(), sharing.begin(), sharing.end());
      try {
        return load_scenario_file(spec.scenario_path, catalog, all);
      } catch (const InputError& e) {
        if (e.file() == "--set") throw InputError(spec.file, axis_pointer(spec, e.where()), e.problem());
        throw;
      }
    };
    const auto resolve = [&](const Scenario& scenario, const SweepVariantSpec& v) {
      try {
        return v.definition.is_null()
                   ? sharing_variant(scenario, v.name, spec.file + ": " + v.pointer)
                   : sharing_variant_from_definition(scenario, v.name, v.definition, spec.file, v.pointer);
      } catch (const InputError& e) {
        // An unknown name is reported at the spec's entry.
        if (e.file() == spec.file + ": " + v.pointer) throw InputError(spec.file, v.pointer, e.problem());
        throw;
      }
    };
    // The point as the scenario shares it. With variants, a point that fails to load may fail
    // only for the scenario's own sharing (the loader counts whole GPUs on exclusive pools, a gang
    // wider than them is refused); each variant then loads the point with its own sharing.
    std::optional<Scenario> own;
    std::optional<InputError> own_error;
    try {
      own = load_point({});
    } catch (const InputError& e) {
      if (spec.variants.empty()) throw;
      own_error = e;
    }
    std::vector<SharingVariant> variants;
    std::vector<Scenario> variant_scenarios;  // the point as each variant loads it (before applying it)
    std::optional<Scenario> shape;            // the scenario without the point, for the pools a variant names
    for (const SweepVariantSpec& v : spec.variants) {
      if (own) {
        variants.push_back(resolve(*own, v));
        variant_scenarios.push_back(*own);
        continue;
      }
      if (!shape) {
        try {
          shape = load_scenario_file(spec.scenario_path, catalog);
        } catch (const InputError&) {
          throw *own_error;
        }
      }
      const SharingVariant first = resolve(*shape, v);
      Scenario loaded;
      try {
        loaded = load_point(sharing_variant_overrides(first));
      } catch (const InputError& e) {
        if (e.file() == spec.file) throw;
        rethrow_for_variant(e, *shape, first, spec.file + ": " + v.pointer);
      }
      // Resolved again on the point's own pools: a grid may change a pool's GPU, and a built-in
      // policy's defaults depend on it.
      variants.push_back(resolve(loaded, v));
      variant_scenarios.push_back(std::move(loaded));
    }
    const std::size_t variant_count = variants.empty() ? 1 : variants.size();
    for (std::size_t v = 0; v < variant_count; ++v) {
      const Scenario& scenario = variants.empty() ? *own : variant_scenarios[v];
      const Scenario base = variants.empty() ? scenario : apply_sharing_variant(scenario, variants[v]);
      try {
        const ScenarioRun check(base, catalog);  // checks sharing configs, trace files, sample files
      } catch (const InputError& e) {
        if (variants.empty()) throw;
        rethrow_for_variant(e, scenario, variants[v], spec.file + ": " + spec.variants[v].pointer);
      }
      for (std::uint64_t seed : spec.seeds) {
        Scenario run = base;
        run.seed = seed;
        run.document["seed"] = seed;
        SweepRun entry;
        entry.point = point;
        entry.variant = variants.empty() ? "" : variants[v].name;
        entry.seed = seed;
        entry.id = sweep_run_id(run);
        entry.group = plan.groups;
        const auto [earlier, fresh] = first_with_id.emplace(entry.id, plan.runs.size());
        if (!fresh) {
          throw InputError(spec.file, "",
                           "runs " + std::to_string(earlier->second + 1) + " and " +
                               std::to_string(plan.runs.size() + 1) +
                               " are the same scenario and seed (is a grid value or a variant listed twice?)");
        }
        plan.runs.push_back(std::move(entry));
        out.scenarios.push_back(std::move(run));
      }
      ++plan.groups;
    }
  } while (advance(step, spec.axes));
  return out;
}

nlohmann::ordered_json SweepPlan::to_json() const {
  Json json;
  json["sharesim_version"] = sharesim_version();
  json["point_paths"] = point_paths;
  json["has_variants"] = has_variants;
  json["metrics"] = metrics;
  json["groups"] = groups;
  Json list = Json::array();
  for (const SweepRun& run : runs) {
    list.push_back(
        Json{{"id", run.id}, {"point", run.point}, {"variant", run.variant}, {"seed", run.seed}, {"group", run.group}});
  }
  json["runs"] = std::move(list);
  return json;
}

SweepPlan SweepPlan::from_json(const nlohmann::ordered_json& json, const std::string& file) {
  try {
    SweepPlan plan;
    plan.point_paths = json.at("point_paths").get<std::vector<std::string>>();
    plan.has_variants = json.at("has_variants").get<bool>();
    plan.metrics = json.at("metrics").get<std::vector<std::string>>();
    // Parsed from a file, a non-negative integer is unsigned; built in memory it may be signed.
    const auto natural = [](const Json& value) {
      return value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() >= 0);
    };
    const Json& groups = json.at("groups");
    if (!natural(groups)) {
      throw InputError(file, "/groups", "expected the number of groups, an integer >= 0, found " + groups.dump());
    }
    plan.groups = groups.get<std::size_t>();
    const Json& runs = json.at("runs");
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const Json& entry = runs.at(r);
      const std::string at = "/runs/" + std::to_string(r);
      SweepRun run;
      run.id = entry.at("id").get<std::string>();
      for (const Json& value : entry.at("point")) run.point.push_back(value);
      // Merging reads a run's point value per path and files it under its group: an index out
      // of range there was "internal error: vector::_M_range_check" (exit 1), a hand-edited or
      // damaged plan reported as a bug.
      if (run.point.size() != plan.point_paths.size()) {
        throw InputError(file, at + "/point",
                         "expected " + std::to_string(plan.point_paths.size()) +
                             " values, one per /point_paths entry, found " + std::to_string(run.point.size()));
      }
      run.variant = entry.at("variant").get<std::string>();
      run.seed = entry.at("seed").get<std::uint64_t>();
      const Json& group = entry.at("group");
      if (!natural(group) || group.get<std::size_t>() >= plan.groups) {
        throw InputError(file, at + "/group",
                         plan.groups == 0 ? "expected a group index below /groups, found " + group.dump() +
                                                " (/groups is 0, so no run can have a group)"
                                          : "expected a group index from 0 to " + std::to_string(plan.groups - 1) +
                                                " (below /groups, " + std::to_string(plan.groups) + "), found " +
                                                group.dump());
      }
      run.group = group.get<std::size_t>();
      plan.runs.push_back(std::move(run));
    }
    return plan;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file, "", std::string("not a sweep plan written by sharesim sweep: ") + e.what());
  }
}

}  // namespace sharesim
