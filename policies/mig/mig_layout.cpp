#include "policies/mig/mig_layout.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <map>
#include <string_view>

#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"

namespace sharesim {
namespace {

struct Requested {
  const MigProfile* profile = nullptr;
  std::optional<int> start;  // pinned with "@<start>"
};

std::string join_ints(std::span<const int> values) {
  std::string text;
  for (int value : values) {
    if (!text.empty()) text += ", ";
    text += std::to_string(value);
  }
  return text;
}

std::string slice_range(const MigProfile& profile, int start) {
  const int last = start + profile.placement_size - 1;
  if (last == start) return "memory slice " + std::to_string(start);
  return "memory slices " + std::to_string(start) + "-" + std::to_string(last);
}

std::string at(const MigProfile& profile, int start) { return std::string(profile.name) + "@" + std::to_string(start); }

// Bit i set = memory slice i taken.
unsigned slice_mask(const MigProfile& profile, int start) {
  const unsigned width = static_cast<unsigned>(profile.placement_size);
  const unsigned ones = width >= 32 ? ~0U : (1U << width) - 1U;
  return ones << static_cast<unsigned>(start);
}

bool is_allowed_start(const MigProfile& profile, int start) {
  return std::find(profile.start_slots.begin(), profile.start_slots.end(), start) != profile.start_slots.end();
}

bool looks_like_layout_name(std::string_view name) { return name.starts_with("all-"); }

std::string unknown_layout(const MigGpuProfiles& gpu, std::string_view name) {
  if (name == "all-disabled") {
    return "\"all-disabled\" turns MIG off, so there are no instances to lay out; use the exclusive sharing policy "
           "for a GPU without MIG";
  }
  if (name == "all-enabled") {
    return "\"all-enabled\" turns MIG on without creating any instance, so the GPU would offer nothing; name a "
           "layout with instances such as \"all-balanced\"";
  }
  const std::vector<std::string> names = gpu.layout_names();
  std::string text =
      "unknown MIG layout " + quote(name) + " on " + std::string(gpu.gpu_id) + "; layouts: " + quoted_list(names);
  if (auto suggestion = closest_match(name, names)) text += "; did you mean " + quote(*suggestion) + "?";
  return text;
}

std::string unknown_profile(const MigGpuProfiles& gpu, std::string_view name) {
  const std::vector<std::string> names = gpu.profile_names();
  std::string text =
      "unknown MIG profile " + quote(name) + " on " + std::string(gpu.gpu_id) + "; profiles: " + quoted_list(names);
  if (auto suggestion = closest_match(name, names)) text += "; did you mean " + quote(*suggestion) + "?";
  return text;
}

// One entry of an explicit list: "<profile>" or "<profile>@<start>".
std::optional<Requested> parse_entry(const MigGpuProfiles& gpu, std::string_view entry, std::string& problem) {
  const std::size_t at_sign = entry.rfind('@');
  const std::string_view name = at_sign == std::string_view::npos ? entry : entry.substr(0, at_sign);
  const MigProfile* profile = gpu.find(name);
  if (profile == nullptr) {
    problem = unknown_profile(gpu, name);
    return std::nullopt;
  }
  Requested requested{profile, std::nullopt};
  if (at_sign == std::string_view::npos) return requested;

  const std::string_view digits = entry.substr(at_sign + 1);
  int start = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), start);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) {
    problem = quote(entry) + ": the start after \"@\" must be a memory slice index (allowed for " +
              std::string(profile->name) + ": " + join_ints(profile->start_slots) + ")";
    return std::nullopt;
  }
  if (!is_allowed_start(*profile, start)) {
    problem = "start " + std::to_string(start) + " is not an allowed placement of " + std::string(profile->name) +
              " (allowed: " + join_ints(profile->start_slots) + ")";
    return std::nullopt;
  }
  requested.start = start;
  return requested;
}

// Places `order[index..]` on the slices left free in `taken`, trying each instance's allowed
// starts in ascending order. Instances of the same profile are placed in ascending start order,
// so each set of starts is tried once.
bool place(const std::vector<const MigProfile*>& order, std::size_t index, unsigned taken, std::vector<int>& starts) {
  if (index == order.size()) return true;
  const MigProfile& profile = *order[index];
  const int lowest = index > 0 && order[index - 1] == order[index] ? starts[index - 1] + 1 : 0;
  for (int start : profile.start_slots) {
    if (start < lowest) continue;
    const unsigned mask = slice_mask(profile, start);
    if ((taken & mask) != 0) continue;
    starts[index] = start;
    if (place(order, index + 1, taken | mask, starts)) return true;
  }
  return false;
}

}  // namespace

std::optional<MigLayout> parse_mig_layout(const MigGpuProfiles& gpu,
                                          const std::vector<std::string>& names_or_single_layout_name,
                                          std::string& problem) {
  const std::vector<std::string>& names = names_or_single_layout_name;
  if (names.empty()) {
    problem = "a MIG layout needs at least one instance: name a layout such as \"all-balanced\" or list profile names";
    return std::nullopt;
  }

  std::vector<Requested> requested;
  if (names.size() == 1 && gpu.find(names.front()) == nullptr && names.front().find('@') == std::string::npos &&
      (gpu.find_layout(names.front()) != nullptr || looks_like_layout_name(names.front()))) {
    const NamedLayout* layout = gpu.find_layout(names.front());
    if (layout == nullptr) {
      problem = unknown_layout(gpu, names.front());
      return std::nullopt;
    }
    for (const MigProfileCount& count : layout->counts) {
      const MigProfile* profile = gpu.find(count.profile);
      if (profile == nullptr) {  // a table error, caught by the unit tests
        problem = "MIG layout " + quote(layout->name) + " names " + quote(count.profile) + ", which " +
                  std::string(gpu.gpu_id) + " has no profile for";
        return std::nullopt;
      }
      for (int i = 0; i < count.count; ++i) requested.push_back(Requested{profile, std::nullopt});
    }
  } else {
    for (const std::string& entry : names) {
      if (gpu.find_layout(entry) != nullptr || (gpu.find(entry) == nullptr && looks_like_layout_name(entry))) {
        problem = "layout name " + quote(entry) +
                  " must be the only entry of a MIG layout; list profile names to combine instances";
        return std::nullopt;
      }
      std::optional<Requested> parsed = parse_entry(gpu, entry, problem);
      if (!parsed) return std::nullopt;
      requested.push_back(*parsed);
    }
  }

  // Instance limits, in the order the profiles first appear.
  std::vector<const MigProfile*> seen;
  std::map<const MigProfile*, int> counts;
  for (const Requested& r : requested) {
    if (counts[r.profile]++ == 0) seen.push_back(r.profile);
  }
  for (const MigProfile* profile : seen) {
    if (counts[profile] > profile->max_count) {
      problem = "at most " + count_of(profile->max_count, "instance", "instances") + " of " +
                std::string(profile->name) + (profile->max_count == 1 ? " fits" : " fit") + " on one " +
                std::string(gpu.gpu_id) + "; this layout has " + std::to_string(counts[profile]);
      return std::nullopt;
    }
  }

  int compute = 0;
  int memory = 0;
  for (const Requested& r : requested) {
    compute += r.profile->compute_slices;
    memory += r.profile->memory_slices;
  }
  if (compute > gpu.compute_slices) {
    problem = std::to_string(gpu.compute_slices) + " compute slices are the most one " + std::string(gpu.gpu_id) +
              " has; this layout needs " + std::to_string(compute);
    return std::nullopt;
  }
  if (memory > gpu.memory_slices) {
    problem = std::to_string(gpu.memory_slices) + " memory slices are the most one " + std::string(gpu.gpu_id) +
              " has; this layout needs " + std::to_string(memory);
    return std::nullopt;
  }

  // Pinned instances first: they must not overlap each other.
  unsigned taken = 0;
  std::vector<MigInstance> pinned;
  for (const Requested& r : requested) {
    if (!r.start) continue;
    const unsigned mask = slice_mask(*r.profile, *r.start);
    if ((taken & mask) != 0) {
      for (const MigInstance& other : pinned) {
        if ((slice_mask(*other.profile, other.start) & mask) != 0) {
          problem = at(*r.profile, *r.start) + " (" + slice_range(*r.profile, *r.start) + ") overlaps " +
                    at(*other.profile, other.start) + " (" + slice_range(*other.profile, other.start) + ")";
          return std::nullopt;
        }
      }
    }
    taken |= mask;
    pinned.push_back(MigInstance{r.profile, *r.start});
  }

  // The rest: largest placements first, then most compute, then as listed.
  std::vector<const MigProfile*> order;
  for (const Requested& r : requested) {
    if (!r.start) order.push_back(r.profile);
  }
  std::stable_sort(order.begin(), order.end(), [](const MigProfile* a, const MigProfile* b) {
    if (a->placement_size != b->placement_size) return a->placement_size > b->placement_size;
    return a->compute_slices > b->compute_slices;
  });
  std::vector<int> starts(order.size(), 0);
  if (!place(order, 0, taken, starts)) {
    std::string to_place;
    for (const MigProfile* profile : order) {
      if (!to_place.empty()) to_place += ", ";
      to_place += std::string(profile->name) + " (starts " + join_ints(profile->start_slots) + ")";
    }
    std::string held;
    for (const MigInstance& instance : pinned) {
      if (!held.empty()) held += ", ";
      held += at(*instance.profile, instance.start) + " (" + slice_range(*instance.profile, instance.start) + ")";
    }
    problem = "no placement of these instances fits without overlapping memory slices: to place " + to_place +
              (held.empty() ? std::string() : "; pinned " + held);
    return std::nullopt;
  }

  MigLayout layout;
  layout.instances = pinned;
  for (std::size_t i = 0; i < order.size(); ++i) layout.instances.push_back(MigInstance{order[i], starts[i]});
  std::sort(layout.instances.begin(), layout.instances.end(),
            [](const MigInstance& a, const MigInstance& b) { return a.start < b.start; });
  return layout;
}

std::string format_mig_layout(const MigLayout& layout) {
  std::string text;
  for (const MigInstance& instance : layout.instances) {
    if (!text.empty()) text += ", ";
    text += at(*instance.profile, instance.start);
  }
  return text;
}

int mig_layout_sm_count(const MigLayout& layout) {
  int total = 0;
  for (const MigInstance& instance : layout.instances) total += instance.profile->sm_count;
  return total;
}

int mig_layout_compute_slices(const MigLayout& layout) {
  int total = 0;
  for (const MigInstance& instance : layout.instances) total += instance.profile->compute_slices;
  return total;
}

std::int64_t mig_layout_memory_mib(const MigLayout& layout) {
  std::int64_t total = 0;
  for (const MigInstance& instance : layout.instances) total += instance.profile->memory_mib;
  return total;
}

}  // namespace sharesim
