#include "sim/core/random_stream.h"

#include <array>
#include <cmath>
#include <numbers>

namespace sharesim {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// FNV-1a, 64-bit: a stable hash of the stream name.
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

RandomStream::RandomStream(std::uint64_t seed) {
  std::uint64_t x = seed;
  for (auto& word : state_) word = splitmix64(x);
}

RandomStream::RandomStream(std::uint64_t scenario_seed, std::string_view stream_name)
    : RandomStream(scenario_seed ^ rotl(fnv1a(stream_name), 17)) {}

std::uint64_t RandomStream::next_u64() {
  const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

double RandomStream::uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

std::uint64_t RandomStream::uniform_index(std::uint64_t n) {
  // Reject the top partial block so every residue is equally likely.
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t x = next_u64();
  while (x >= limit) x = next_u64();
  return x % n;
}

namespace {

// Ziggurat tables for the unit exponential density f(x) = exp(-x) (Marsaglia & Tsang, "The
// Ziggurat Method for Generating Random Variables", J. Stat. Software 5(8), 2000): 256 strips
// of equal area v; strip i spans [0, x[i]] horizontally, x[0] = v / f(r) is the base strip
// with the tail beyond r, and x[256] = 0. Constants r and v are from that paper.
struct ExponentialZiggurat {
  static constexpr double kR = 7.69711747013104972;
  static constexpr double kV = 3.949659822581572e-3;
  std::array<double, 257> x{};
  std::array<double, 257> f{};  // exp(-x[i])
  ExponentialZiggurat() {
    x[0] = kV / std::exp(-kR);
    x[1] = kR;
    for (std::size_t i = 1; i < 256; ++i) x[i + 1] = -std::log(kV / x[i] + std::exp(-x[i]));
    x[256] = 0;
    for (std::size_t i = 0; i <= 256; ++i) f[i] = std::exp(-x[i]);
  }
  // A try: its strip from the low 8 bits of a 64-bit draw, its place across the strip from the
  // top 53 bits.
  struct Point {
    std::size_t strip;
    double x;
  };
  Point point(std::uint64_t bits) const {
    const std::size_t strip = bits & 0xFF;
    return {strip, static_cast<double>(bits >> 11) * 0x1.0p-53 * x[strip]};
  }
  // Inside the strip's rectangle, which lies under the curve: accepted at once.
  bool in_rectangle(const Point& p) const { return p.x < x[p.strip + 1]; }
};

const ExponentialZiggurat& exponential_ziggurat() {
  static const ExponentialZiggurat tables;
  return tables;
}

}  // namespace

// Unit exponential by the ziggurat: one 64-bit draw gives the strip (low 8 bits) and the
// position (top 53 bits); 98.9% of draws are accepted at once without any log or exp. The rare
// rest is a function of its own: with its calls to log and exp inline here, every draw paid
// for saving and restoring registers, a third of the draw's instructions (callgrind of the
// inference benchmark's scenario, docs/ci.md 2026-11-28).
double RandomStream::exponential(double mean) {
  const ExponentialZiggurat& z = exponential_ziggurat();
  const ExponentialZiggurat::Point p = z.point(next_u64());
  if (z.in_rectangle(p)) return mean * p.x;
  return exponential_outside_rectangle(mean, p.strip, p.x);
}

[[gnu::noinline]] double RandomStream::exponential_outside_rectangle(double mean, std::size_t strip, double x) {
  const ExponentialZiggurat& z = exponential_ziggurat();
  while (true) {
    if (strip == 0) {
      // The tail beyond r: the exponential is memoryless, so r + Exp(1) by inversion.
      return mean * (ExponentialZiggurat::kR - std::log(1.0 - uniform01()));
    }
    // The wedge between the rectangle and the curve: accept under exp(-x).
    const double y = z.f[strip] + uniform01() * (z.f[strip + 1] - z.f[strip]);
    if (y < std::exp(-x)) return mean * x;
    // Rejected: a new try, as in exponential().
    const ExponentialZiggurat::Point p = z.point(next_u64());
    if (z.in_rectangle(p)) return mean * p.x;
    strip = p.strip;
    x = p.x;
  }
}

double RandomStream::standard_normal() {
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return spare_normal_;
  }
  const double u1 = 1.0 - uniform01();  // (0, 1]: log is finite
  const double u2 = uniform01();
  const double radius = std::sqrt(-2.0 * std::log(u1));
  const double angle = 2.0 * std::numbers::pi * u2;
  spare_normal_ = radius * std::sin(angle);
  has_spare_normal_ = true;
  return radius * std::cos(angle);
}

double RandomStream::lognormal(double mean, double cv) {
  const double sigma2 = std::log1p(cv * cv);
  const double mu = std::log(mean) - sigma2 / 2;
  return std::exp(mu + std::sqrt(sigma2) * standard_normal());
}

}  // namespace sharesim
