#include "sim/input/did_you_mean.h"

#include <algorithm>
#include <cctype>

namespace sharesim {
namespace {

// Shorter words than this prefix too many names to make a useful suggestion.
constexpr std::size_t kShortestPrefix = 3;

std::string lowercase(std::string_view text) {
  std::string folded(text);
  for (char& c : folded) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return folded;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rolling rows of the dynamic-programming table: the swap case looks two rows back.
  const std::size_t width = b.size() + 1;
  std::vector<std::size_t> before_previous(width), previous(width), current(width);
  for (std::size_t j = 0; j < width; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j < width; ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before_previous[j - 2] + 1);
      }
    }
    std::swap(before_previous, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string folded_word = lowercase(word);
  const std::size_t threshold = std::max<std::size_t>(2, word.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = edit_distance(folded_word, lowercase(candidate));
    if (distance > threshold || distance >= word.size()) continue;
    if (!best || distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  if (best || word.size() < kShortestPrefix) return best;
  // A truncated id ("H100" for "H100-80GB") is far in edit distance but plainly meant.
  for (const std::string& candidate : candidates) {
    if (lowercase(candidate).starts_with(folded_word)) return candidate;
  }
  return std::nullopt;
}

}  // namespace sharesim
