#pragma once
// The target workload of FGD (Weng et al., ATC'23, Sec. 4): the pod classes of the original
// pod list, most frequent first, until they cover a given share of the pods (95% in the paper's
// artifact, its "typical pods"), with probabilities renormalised over the chosen classes.
#include "experiments/fragmentation/experiment_input.h"
#include "sim/sched/placement/fragmentation.h"

namespace sharesim {

inline constexpr double kTargetWorkloadCoverage = 0.95;

// A class is (cpu_milli, gpu_milli, num_gpu, gpu_spec); memory is not part of it. Classes are
// taken while the pods covered so far are fewer than coverage x all pods; ties in frequency go
// to the smaller (num_gpu, gpu_milli, cpu_milli, model mask), so the order is deterministic.
// CPU-only pods are classes too (their fragment is all idle GPU milli).
TargetWorkload build_target_workload(const std::vector<ExperimentPod>& pods, double coverage = kTargetWorkloadCoverage);

}  // namespace sharesim
