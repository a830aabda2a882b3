#include "policies/time_sharing/duty_cycle.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

#include "sim/cluster/gpu_sharing.h"

namespace sharesim {
namespace {

// log w(k) for k = 0..n: w(0) = 1, w(k) = w(k-1) * k / mu(k), mu(1) = 1, mu(k >= 2) = e.
std::vector<double> log_weights(std::size_t n, double efficiency) {
  std::vector<double> log_w(n + 1, 0.0);
  for (std::size_t k = 1; k <= n; ++k) {
    log_w[k] = log_w[k - 1] + std::log(static_cast<double>(k)) - (k >= 2 ? std::log(efficiency) : 0.0);
  }
  return log_w;
}

// The coefficients of prod_i ((1 - u_i) + u_i x): coefficient k is the probability that
// exactly k contexts are queued if each were queued independently with probability u_i. They
// sum to 1, so none overflows.
std::vector<double> queued_count_polynomial(std::span<const double> duty) {
  std::vector<double> a{1.0};
  for (const double u : duty) {
    a.push_back(0.0);
    for (std::size_t k = a.size() - 1; k > 0; --k) a[k] = a[k] * (1.0 - u) + a[k - 1] * u;
    a[0] *= 1.0 - u;
  }
  return a;
}

// The polynomial divided by ((1 - u) + u x), i.e. the same product without that context. The
// division runs from the end where the divisor's larger coefficient sits, which keeps the
// rounding errors from growing (deflation in the stable direction).
std::vector<double> without_context(const std::vector<double>& a, double u) {
  const std::size_t n = a.size() - 1;  // degree; the quotient has degree n - 1
  std::vector<double> b(n, 0.0);
  const double c = 1.0 - u;
  if (u >= c) {
    b[n - 1] = a[n] / u;
    for (std::size_t k = n - 1; k >= 1; --k) b[k - 1] = (a[k] - c * b[k]) / u;
  } else {
    b[0] = a[0] / c;
    for (std::size_t k = 1; k < n; ++k) b[k] = (a[k] - u * b[k - 1]) / c;
  }
  for (double& v : b) v = std::max(v, 0.0);
  return b;
}

// log of sum_k a_k w(k), shifted by the largest term so that w's growth cannot overflow.
double log_normaliser(const std::vector<double>& a, const std::vector<double>& log_w) {
  double largest = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k] > 0) largest = std::max(largest, std::log(a[k]) + log_w[k]);
  }
  double sum = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k] > 0) sum += std::exp(std::log(a[k]) + log_w[k] - largest);
  }
  return largest + std::log(sum);
}

}  // namespace

void duty_cycle_speeds(std::span<const double> duty, double efficiency, std::span<double> speed) {
  assert(duty.size() == speed.size());
  assert(efficiency > 0 && efficiency <= 1);
  std::vector<double> queued;  // duty cycles of the contexts with GPU work
  bool all_always_queued = true;
  for (const double u : duty) {
    if (u <= 0) continue;
    queued.push_back(std::min(u, 1.0));
    all_always_queued = all_always_queued && u >= 1.0;
  }
  const std::size_t n = queued.size();
  if (all_always_queued) {
    // Round robin over n always-busy contexts, the closed form's limit, written as the
    // time-slicing formula so that it gives exactly the same numbers.
    const double share = n <= 1 ? 1.0 : efficiency / static_cast<double>(n);
    for (std::size_t i = 0; i < duty.size(); ++i) speed[i] = duty[i] > 0 ? share : 0.0;
    return;
  }
  const std::vector<double> log_w = log_weights(n, efficiency);
  const std::vector<double> all = queued_count_polynomial(queued);
  const double log_z = log_normaliser(all, log_w);
  std::size_t q = 0;
  for (std::size_t i = 0; i < duty.size(); ++i) {
    if (duty[i] <= 0) {
      speed[i] = 0.0;
      continue;
    }
    const double u = queued[q++];
    if (n == 1) {
      speed[i] = 1.0;
      continue;
    }
    const double log_z_without = log_normaliser(without_context(all, u), log_w);
    speed[i] = std::clamp(std::exp(log_z_without - log_z), 0.0, 1.0);
  }
}

double duty_cycle_turn_taking(std::span<const double> duty, double efficiency) {
  std::vector<double> queued;
  std::size_t always = 0;
  for (const double u : duty) {
    if (u <= 0) continue;
    queued.push_back(std::min(u, 1.0));
    always += u >= 1.0 ? 1u : 0u;
  }
  if (always >= 2) return 1.0;
  if (queued.size() < 2) return 0.0;
  // P(|S| >= 2) = 1 - (weight of |S| = 0 and |S| = 1) / Z.
  const std::vector<double> log_w = log_weights(queued.size(), efficiency);
  const std::vector<double> all = queued_count_polynomial(queued);
  const double log_z = log_normaliser(all, log_w);
  const double at_most_one = all[0] * std::exp(log_w[0] - log_z) + all[1] * std::exp(log_w[1] - log_z);
  return std::clamp(1.0 - at_most_one, 0.0, 1.0);
}

void concurrent_duty_speeds(std::span<const double> duty, std::span<const double> solo_rate,
                            std::span<const double> busy_rate, std::span<double> speed) {
  assert(duty.size() == solo_rate.size() && duty.size() == busy_rate.size() && duty.size() == speed.size());
  const std::size_t n = duty.size();
  std::vector<std::size_t> active;  // contexts with GPU work and a positive busy rate
  bool all_always_busy = true;
  std::size_t with_work = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (duty[i] <= 0) continue;
    ++with_work;
    all_always_busy = all_always_busy && duty[i] >= 1.0;
    if (busy_rate[i] > 0) active.push_back(i);
  }
  if (all_always_busy) {
    for (std::size_t i = 0; i < n; ++i) speed[i] = duty[i] > 0 ? busy_rate[i] : 0.0;
    return;
  }
  // The cycle of a context: host phases (share 1 - u of its standalone time) at full speed, GPU
  // phases (share u) stretched by `stretch` (one over their rate).
  const auto cycle_speed = [&](std::size_t i, double stretch) {
    const double u = std::min(duty[i], 1.0);
    return std::min(1.0, 1.0 / ((1.0 - u) + u * stretch));
  };
  for (std::size_t i = 0; i < n; ++i) speed[i] = 0.0;  // no GPU work, or stalled (busy rate 0)
  if (with_work < 2) {
    // Alone: no partner presses; the GPU phases run at the (possibly capped) rate alone. Uncapped,
    // that is standalone speed, exactly 1 (not (1 - u) + u rounded).
    for (const std::size_t i : active) speed[i] = busy_rate[i] >= 1.0 ? 1.0 : cycle_speed(i, 1.0 / busy_rate[i]);
    return;
  }
  // Partners counted: every other context with GPU work (a stalled one, busy rate 0, presses
  // as if always busy).
  const std::size_t partners = with_work - 1;
  const double stalled = static_cast<double>(with_work - active.size());
  // Busy share of each context in the shared run, starting from its solo duty cycle.
  std::vector<double> busy(active.size()), stretch(active.size(), 1.0);
  for (std::size_t a = 0; a < active.size(); ++a) busy[a] = std::min(duty[active[a]], 1.0);
  constexpr int kIterations = 100;
  constexpr double kTolerance = 1e-12;
  for (int iteration = 0; iteration < kIterations; ++iteration) {
    // Distribution of how many of the contexts are in a GPU phase (independent phases).
    const std::vector<double> all = queued_count_polynomial(busy);
    for (std::size_t a = 0; a < active.size(); ++a) {
      const std::vector<double> others = without_context(all, busy[a]);  // k busy partners
      const double solo = solo_rate[active[a]];
      const double pressure = solo / busy_rate[active[a]] - 1.0;  // stretch beyond the cap's, all busy
      double rate = 0;
      for (std::size_t k = 0; k < others.size(); ++k) {
        const double pressing = (static_cast<double>(k) + stalled) / static_cast<double>(partners);
        rate += others[k] * solo / (1.0 + pressing * pressure);
      }
      stretch[a] = 1.0 / rate;  // GPU phases' length against standalone
    }
    double change = 0;
    for (std::size_t a = 0; a < active.size(); ++a) {
      const double u = std::min(duty[active[a]], 1.0);
      const double next = u * stretch[a] / ((1.0 - u) + u * stretch[a]);
      change = std::max(change, std::abs(next - busy[a]));
      busy[a] = next;
    }
    if (change < kTolerance) break;
  }
  for (std::size_t a = 0; a < active.size(); ++a) speed[active[a]] = cycle_speed(active[a], stretch[a]);
}

void resident_duties(std::span<const Resident> residents, std::span<double> duty) {
  for (std::size_t i = 0; i < residents.size(); ++i) duty[i] = is_active(residents[i]) ? residents[i].demand.duty : 0.0;
}

}  // namespace sharesim
