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

// The polynomial divided by ((1 - u) + u x), i.e. the same product without that context.
// Dividing from the low end (b_k = (a_k - u b_{k-1}) / c) multiplies an error in b_{k-1} by
// (u / c) (b_{k-1} / b_k); dividing from the high end (b_{k-1} = (a_k - c b_k) / u) multiplies
// an error in b_k by (c / u) (b_k / b_{k-1}). b is log-concave (a Poisson-binomial
// distribution), so the first factor is below 1 up to the index where u b_{k-1} first exceeds
// c b_k and the second from there on: the low coefficients are divided from the low end until
// then and the rest from the high end (deflation in the stable direction on each side, as for
// polynomial roots: Wilkinson, "Rounding Errors in Algebraic Processes", 1963, ch. 2). One
// direction alone lost every digit of the coefficients on the other side: with 64 contexts of
// duty 0.3 the high ones, which the weights w(k) make dominate Z, came out as noise and a speed
// of 1 instead of 0.05.
std::vector<double> without_context(const std::vector<double>& a, double u) {
  const std::size_t n = a.size() - 1;  // degree; the quotient has degree n - 1
  std::vector<double> b(n, 0.0);
  const double c = 1.0 - u;
  std::size_t split = 0;  // b_0 .. b_{split - 1} from the low end, the others from the high end
  if (c > 0) {
    b[0] = a[0] / c;
    for (split = 1; split < n; ++split) {
      const double next = (a[split] - u * b[split - 1]) / c;
      if (u * b[split - 1] > c * next) break;  // the low end's errors would grow from here
      b[split] = next;
    }
  }
  if (split < n) b[n - 1] = a[n] / u;
  for (std::size_t k = n - 1; k > split; --k) b[k - 1] = (a[k] - c * b[k]) / u;
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

// The product form's sum Z = sum_k a_k w(k), a being the queued-count polynomial, in a form
// whose coefficients stay inside a double's range. The terms that matter sit near the k where
// a_k w(k) peaks, and a_k is about u^k there: 300 contexts of duty 0.02 put it near 1e-400,
// where a double holds 0. Scaling x by s (exponential tilting) turns the product into
// exp(log_factor) * prod_i ((1 - u'_i) + u'_i s x), u'_i = u_i s / ((1 - u_i) + u_i s), a
// distribution of counts whose mass moves to where a_k w(k) peaks when s = k* / e, k* the
// tilted mean (a_k / a_{k-1} = e / k there, and the tilted coefficients' ratio is 1 at their
// mode). The weights become w(k) / s^k.
struct QueuedCounts {
  std::vector<double> duty;          // u'_i (u_i when not tilted)
  std::vector<double> coefficients;  // of prod_i ((1 - u'_i) + u'_i x)
  std::vector<double> log_weight;    // log w(k) - k log s
  double scale = 1.0;                // s
  double log_factor = 0.0;           // sum_i log((1 - u_i) + u_i s)
  double log_z = 0.0;                // log Z

  // log of Z without context i: its factor ((1 - u_i) + u_i s) goes, and the polynomial is
  // divided by its term.
  double log_z_without(std::size_t i, double u) const {
    const double own = scale == 1.0 ? 0.0 : std::log((1.0 - u) + u * scale);
    return log_factor - own + log_normaliser(without_context(coefficients, duty[i]), log_weight);
  }
};

// s: 1 when the polynomial's end coefficients (prod u_i, and prod (1 - u_i) over the contexts
// with u_i < 1) are normal doubles, so that every coefficient is (the sequence is log-concave:
// each lies above the smaller end). Otherwise the k with sum_i u'_i(k / e) = k (the tilted mean
// at s = k / e), by bisection on [e, n]: the sum is increasing and concave in k and below n at
// n. 1 when that mean is below e: the mass of a_k w(k) is then at counts that do not underflow.
double tilt_scale(std::span<const double> duty, double efficiency) {
  constexpr double kLogSmallest = -690.0;  // about log(1e-300), above the subnormals
  double log_top = 0, log_bottom = 0;
  for (const double u : duty) {
    log_top += std::log(u);
    if (u < 1.0) log_bottom += std::log1p(-u);
  }
  if (log_top > kLogSmallest && log_bottom > kLogSmallest) return 1.0;
  const auto tilted_mean = [&](double k) {
    const double s = k / efficiency;
    double mean = 0;
    for (const double u : duty) mean += u * s / ((1.0 - u) + u * s);
    return mean;
  };
  double low = efficiency, high = static_cast<double>(duty.size());
  if (high <= low || tilted_mean(low) <= low) return 1.0;
  for (int step = 0; step < 60; ++step) {
    const double middle = 0.5 * (low + high);
    (tilted_mean(middle) > middle ? low : high) = middle;
  }
  return std::max(1.0, 0.5 * (low + high) / efficiency);
}

QueuedCounts queued_counts(std::span<const double> duty, double efficiency) {
  QueuedCounts counts;
  counts.scale = tilt_scale(duty, efficiency);
  counts.log_weight = log_weights(duty.size(), efficiency);
  if (counts.scale == 1.0) {
    counts.duty.assign(duty.begin(), duty.end());
  } else {
    const double log_scale = std::log(counts.scale);
    for (std::size_t k = 0; k < counts.log_weight.size(); ++k) {
      counts.log_weight[k] -= static_cast<double>(k) * log_scale;
    }
    for (const double u : duty) {
      const double factor = (1.0 - u) + u * counts.scale;
      counts.log_factor += std::log(factor);
      counts.duty.push_back(u * counts.scale / factor);
    }
  }
  counts.coefficients = queued_count_polynomial(counts.duty);
  counts.log_z = counts.log_factor + log_normaliser(counts.coefficients, counts.log_weight);
  return counts;
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
  const QueuedCounts counts = queued_counts(queued, efficiency);
  std::size_t q = 0;
  for (std::size_t i = 0; i < duty.size(); ++i) {
    if (duty[i] <= 0) {
      speed[i] = 0.0;
      continue;
    }
    const std::size_t context = q++;
    if (n == 1) {
      speed[i] = 1.0;
      continue;
    }
    speed[i] = std::clamp(std::exp(counts.log_z_without(context, queued[context]) - counts.log_z), 0.0, 1.0);
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
  const QueuedCounts counts = queued_counts(queued, efficiency);
  const std::vector<double>& a = counts.coefficients;
  const double at_most_one = a[0] * std::exp(counts.log_factor + counts.log_weight[0] - counts.log_z) +
                             a[1] * std::exp(counts.log_factor + counts.log_weight[1] - counts.log_z);
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
