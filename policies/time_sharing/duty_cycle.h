#pragma once
// Time-divided sharing of one GPU (or one MIG instance) by contexts that have GPU work queued
// only part of the time (docs/models.md "Duty cycles").
//
// Measured: a CUDA context that has no work queued yields the GPU, so contexts compete only
// while their busy periods overlap (DESIGN.md "Contention model"). Each context alternates
// between host phases (no GPU work queued; a share 1 - u of its standalone run time) and GPU
// phases (a share u), u being its duty cycle: nvidia-smi utilization.gpu / 100 when it runs
// alone. While k >= 2 contexts have work queued the GPU serves them in turn and only a share e
// of its time does work (e = slice / (slice + switch gap), SliceTiming::efficiency).
//
// With slices short against the phases, taking turns is processor sharing, and the GPU with its
// contexts is a closed queueing network: one processor-sharing station of capacity mu(1) = 1,
// mu(k >= 2) = e, and one delay (infinite-server) station per context, one customer each. That
// is a BCMP network (Baskett, Chandy, Muntz, Palacios, "Open, closed, and mixed networks of
// queues with different classes of customers", JACM 22(2), 1975): its stationary distribution
// has product form and depends on the phase lengths only through their means. With S the set
// of contexts that have GPU work queued,
//   pi(S) ~ w(|S|) * prod_{i in S} u_i * prod_{i not in S} (1 - u_i),
//   w(k) = k! / (mu(1) * ... * mu(k)),
// and context i's speed relative to running alone (its throughput of cycles) works out to
//   speed_i = Z(all contexts but i) / Z(all contexts),
// Z being the normalising sum of the weights above over every S. Contexts with u = 1 are
// always queued: n of them get e / n each, the familiar round-robin share.
#include <span>

namespace sharesim {

// Writes speed.size() == duty.size() speeds. duty[i] in (0, 1] for a context with GPU work,
// 0 for one without (speed 0: it takes no turns; the caller decides what it means).
// `efficiency` in (0, 1]: the share of the GPU's time that does work while two or more take
// turns. Cost O(n^2) for n contexts with 0 < u < 1; when every context has u = 1 the result is
// exactly efficiency / n, as the round-robin formula gives.
void duty_cycle_speeds(std::span<const double> duty, double efficiency, std::span<double> speed);

// Share of the time during which two or more of these contexts have work queued (and so take
// turns and switch), from the same stationary distribution; 1 when two or more have u = 1.
double duty_cycle_turn_taking(std::span<const double> duty, double efficiency);

// Concurrent sharing (MPS) with duty cycles. `solo_rate[i]` is context i's rate during its GPU
// phases with no partner in a GPU phase: 1, or less under an SM cap (MPS active thread
// percentage: min(1, cap / sm)); its host phases need no SMs and run at full speed, cap or not.
// `busy_rate[i]` is its rate while every active context has GPU work (the contention model's
// answer), so solo_rate[i] / busy_rate[i] - 1 is the stretch of its GPU work that all its m
// partners cause together; what its own cap costs is not a partner's pressure. With duty cycles
// a partner presses only while it is in a GPU phase, and pressures add (as in the interference
// model): with k of the m partners busy the GPU-phase rate is
// solo_rate[i] / (1 + (k / m) (solo_rate[i] / busy_rate[i] - 1)). Context i's rate during its
// GPU phases is the time average of that over how many partners are busy, each busy with its
// share q_j of the shared run independently of the others (a Poisson-binomial count);
// q_j = u_j s_j / ((1 - u_j) + u_j s_j), s_j one over its own average rate, solved by fixed-point
// iteration; speed_i = 1 / ((1 - u_i) + u_i s_i). A context alone has s_i = 1 / busy_rate[i].
// Checked against the duty-cycle probe on an H100 and an H200, uncapped (docs/validation.md
// "Duty cycles measured"). Cost O(n^2) per iteration. When every context has u = 1 the speeds
// are the busy rates exactly.
void concurrent_duty_speeds(std::span<const double> duty, std::span<const double> solo_rate,
                            std::span<const double> busy_rate, std::span<double> speed);

// The duty cycles of residents, 0 for those without GPU work (is_active false).
struct Resident;
void resident_duties(std::span<const Resident> residents, std::span<double> duty);

}  // namespace sharesim
