#pragma once
// The experiment's result curve (Weng et al., ATC'23, Sec. 6): after each pod,
// the arrived and allocated GPU milli and the cluster's fragmentation, bucketed by arrival %.
#include <cstdint>
#include <string>
#include <vector>

namespace sharesim {

// The cluster right after one pod was handled (placed or failed).
struct PodOutcome {
  std::int64_t arrived_gpu_milli = 0;    // asked for by all pods so far, placed or not
  std::int64_t allocated_gpu_milli = 0;  // held by placed pods
  std::int64_t idle_gpu_milli = 0;
  std::int64_t weighted_fragment = 0;  // sum of F_n x total_weight
  std::int64_t failed_pods = 0;        // so far
};

// One integer arrival bucket: arrival % = arrived / cluster GPU milli x 100, floored.
struct CurveRow {
  std::int64_t arrival_pct = 0;
  double allocation_pct = 0;     // mean over the bucket's pods of allocated / cluster x 100
  double frag_ratio_pct = 0;     // mean of sum F / idle milli x 100 (0 when nothing is idle)
  double frag_amount_pct = 0;    // mean of sum F / cluster GPU milli x 100
  std::int64_t failed_pods = 0;  // failed so far, at the bucket's last pod
  std::int64_t pods = 0;         // pods in the bucket
};

// Builds the rows from the outcomes in arrival order; buckets without pods get no row.
class CurveBuilder {
 public:
  CurveBuilder(std::int64_t cluster_gpu_milli, std::int64_t total_weight)
      : cluster_(cluster_gpu_milli), total_weight_(total_weight) {}
  void add(const PodOutcome& outcome);
  std::vector<CurveRow> finish();

 private:
  void close_bucket();
  std::int64_t cluster_, total_weight_;
  std::vector<CurveRow> rows_;
  bool open_ = false;
  std::int64_t bucket_ = 0, pods_ = 0, allocated_sum_ = 0, fragment_sum_ = 0, failed_ = 0;
  double ratio_sum_ = 0;
};

// The header and rows of curve.csv, fixed decimals (6), locale-free.
inline constexpr const char* kCurveCsvHeader = "arrival_pct,allocation_pct,frag_ratio_pct,frag_amount_pct,failed_pods";
std::string curve_csv(const std::vector<CurveRow>& rows);
// A number with `decimals` digits after the point (std::to_chars, no locale).
std::string fixed_decimal(double value, int decimals);

}  // namespace sharesim
