#include "experiments/fragmentation/fragmentation_curve.h"

#include <charconv>

namespace sharesim {

void CurveBuilder::add(const PodOutcome& outcome) {
  const std::int64_t bucket = outcome.arrived_gpu_milli * 100 / cluster_;
  if (open_ && bucket != bucket_) close_bucket();
  if (!open_) {
    open_ = true;
    bucket_ = bucket;
  }
  ++pods_;
  allocated_sum_ += outcome.allocated_gpu_milli;
  fragment_sum_ += outcome.weighted_fragment;
  failed_ = outcome.failed_pods;
  if (outcome.idle_gpu_milli > 0 && total_weight_ > 0) {
    ratio_sum_ += static_cast<double>(outcome.weighted_fragment) /
                  (static_cast<double>(total_weight_) * static_cast<double>(outcome.idle_gpu_milli));
  }
}

void CurveBuilder::close_bucket() {
  CurveRow row;
  row.arrival_pct = bucket_;
  row.pods = pods_;
  const double n = static_cast<double>(pods_);
  const double cluster = static_cast<double>(cluster_);
  row.allocation_pct = static_cast<double>(allocated_sum_) / (n * cluster) * 100.0;
  row.frag_ratio_pct = ratio_sum_ / n * 100.0;
  row.frag_amount_pct = total_weight_ > 0 ? static_cast<double>(fragment_sum_) /
                                                (static_cast<double>(total_weight_) * n * cluster) * 100.0
                                          : 0.0;
  row.failed_pods = failed_;
  rows_.push_back(row);
  open_ = false;
  pods_ = allocated_sum_ = fragment_sum_ = 0;
  ratio_sum_ = 0;
}

std::vector<CurveRow> CurveBuilder::finish() {
  if (open_) close_bucket();
  return std::move(rows_);
}

std::string fixed_decimal(double value, int decimals) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, decimals);
  return std::string(buf, end);
}

std::string curve_csv(const std::vector<CurveRow>& rows) {
  std::string out = std::string(kCurveCsvHeader) + "\n";
  for (const CurveRow& row : rows) {
    out += std::to_string(row.arrival_pct) + "," + fixed_decimal(row.allocation_pct, 6) + "," +
           fixed_decimal(row.frag_ratio_pct, 6) + "," + fixed_decimal(row.frag_amount_pct, 6) + "," +
           std::to_string(row.failed_pods) + "\n";
  }
  return out;
}

}  // namespace sharesim
