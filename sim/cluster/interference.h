#pragma once
// Per-job parameters of the concurrent-sharing interference model (docs/models.md, "Concurrent
// sharing: asymmetric interference"). A job has, per resource, a sensitivity (how much it slows
// when another job presses on that resource) and a pressure (how hard it presses). The first
// kNamedResources dimensions are physical resources (SMs, DRAM bandwidth, L2 bandwidth, kernel
// launch / latency); the rest are latent dimensions of the learned low-rank pairwise term, fitted
// from measured pairs where the physical cause is unknown (Gavel). Data only: the rate formula is
// policies/contention/interference_model.h, the fit workloads/profiles/interference_fit.h.
#include <array>
#include <cstddef>
#include <string_view>

namespace sharesim {

inline constexpr std::size_t kNamedResources = 4;
// Eight latent dimensions: with four, the cross-validated rank choice on Gavel's V100 pairs was
// the largest allowed (docs/validation.md, "Rank").
inline constexpr std::size_t kLatentDims = 8;
inline constexpr std::size_t kInterferenceDims = kNamedResources + kLatentDims;
inline constexpr std::array<std::string_view, kNamedResources> kNamedResourceNames{"sm", "dram", "l2", "launch"};

struct InterferenceParams {
  std::array<double, kInterferenceDims> sensitivity{};
  std::array<double, kInterferenceDims> pressure{};
  bool operator==(const InterferenceParams&) const = default;
};

// How much `partner` slows `victim` when the two run concurrently: the slowdown term
// x = sum_k sensitivity_victim[k] * pressure_partner[k] (>= 0; alone-speed / shared-speed - 1).
inline double interference_term(const InterferenceParams& victim, const InterferenceParams& partner) {
  double x = 0;
  for (std::size_t k = 0; k < kInterferenceDims; ++k) x += victim.sensitivity[k] * partner.pressure[k];
  return x;
}

}  // namespace sharesim
