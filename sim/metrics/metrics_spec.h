#pragma once
// The scenario's settings of what the summary reports: prices, service objectives and the
// span the figures cover.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "sim/core/sim_time.h"

namespace sharesim {

struct CostSpec {
  // Price of one GPU-hour of every model; none when the scenario gives none. 0 is a price
  // (free GPUs), not "not given": it replaces the catalog's as any other.
  std::optional<double> gpu_hour;
  // Per GPU model (catalog id): overrides gpu_hour and the catalog's gpu_hour_usd (0 included).
  std::map<std::string, double> gpu_hour_by_model;
  // The price of one GPU-hour of `model`: by_model, else gpu_hour, else the catalog's price.
  double price_of(const std::string& model, double catalog_price) const {
    const auto found = gpu_hour_by_model.find(model);
    if (found != gpu_hour_by_model.end()) return found->second;
    return gpu_hour.value_or(catalog_price);
  }
};

struct SloSpec {
  double max_slowdown = 0;  // completion time / standalone duration a job may reach; 0 = no SLO
  // Share of jobs or requests that must meet their objective for compare's verdict (0.99:
  // for requests, p99 latency within the SLO). A target the user sets, not a model number.
  double attainment = 0.99;
};

// `metrics_window`: which span the summary's figures cover (docs/scenario.md "metrics_window").
// Bounds not given come from the active span: the first arrival to the last completion, or
// to the end of the run while jobs are still pending or running.
struct MetricsWindowSpec {
  bool configured = false;        // the scenario has a metrics_window with at least one key
  SimTime start = -1;             // -1 = not given
  SimTime end = -1;               // -1 = not given
  std::uint64_t warmup_jobs = 0;  // jobs (by arrival) left out before the window opens
};

}  // namespace sharesim
