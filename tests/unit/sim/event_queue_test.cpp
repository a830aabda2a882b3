#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "sim/core/dary_heap_queue.h"
#include "sim/core/radix_heap_queue.h"
#include "sim/core/random_stream.h"
#include "sim/core/simulator.h"

namespace sharesim {
namespace {

struct Recorder : EventHandler {
  std::vector<std::uint64_t> seen;
  void on_event(std::uint32_t arg) override { seen.push_back(arg); }
};

template <typename Queue>
std::vector<std::uint64_t> drain(Queue& queue) {
  std::vector<std::uint64_t> order;
  ScheduledEvent event;
  while (queue.pop(event)) order.push_back(event.arg);
  return order;
}

// Every implementation behind the EventQueue interface passes the same tests.
template <typename Queue>
class EventQueueTest : public ::testing::Test {};
using QueueTypes = ::testing::Types<RadixHeapQueue, DaryHeapQueue<2>, DaryHeapQueue<4>, DaryHeapQueue<8>>;
TYPED_TEST_SUITE(EventQueueTest, QueueTypes);

TYPED_TEST(EventQueueTest, EqualTimesComeOutInInsertionOrder) {
  TypeParam queue;
  Recorder r;
  for (std::uint32_t i = 0; i < 100; ++i) queue.push(5, &r, i);
  const auto order = drain(queue);
  ASSERT_EQ(order.size(), 100u);
  EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
}

TYPED_TEST(EventQueueTest, UrgentEventsComeFirstAtTheirTimeThenEachKindInInsertionOrder) {
  TypeParam queue;
  Recorder r;
  // Interleaved pushes at two times: at each, the Urgent ones (odd args) first, then the Normal
  // ones, each in insertion order.
  for (std::uint32_t i = 0; i < 8; ++i) {
    queue.push(i < 4 ? 10 : 20, &r, i, i % 2 == 1 ? EventPriority::Urgent : EventPriority::Normal);
  }
  EXPECT_EQ(drain(queue), (std::vector<std::uint64_t>{1, 3, 0, 2, 5, 7, 4, 6}));
}

TYPED_TEST(EventQueueTest, AnUrgentEventPushedAtTheCurrentTimeOvertakesTheNormalOnesWaiting) {
  // An event running at t schedules another at t: a Normal one goes behind those waiting at t, an
  // Urgent one ahead of the waiting Normal ones (and behind Urgent ones pushed before it).
  TypeParam queue;
  Recorder r;
  for (std::uint32_t i = 0; i < 4; ++i) queue.push(7, &r, i);
  queue.push(9, &r, 9, EventPriority::Urgent);
  ScheduledEvent event;
  ASSERT_TRUE(queue.pop(event));
  EXPECT_EQ(event.arg, 0u);
  queue.push(7, &r, 10);
  queue.push(7, &r, 11, EventPriority::Urgent);
  queue.push(7, &r, 12, EventPriority::Urgent);
  EXPECT_EQ(drain(queue), (std::vector<std::uint64_t>{11, 12, 1, 2, 3, 10, 9}));
}

TYPED_TEST(EventQueueTest, PopsInTimeOrderAgainstSortedReference) {
  TypeParam queue;
  Recorder r;
  RandomStream rng(42);
  std::vector<std::pair<SimTime, std::uint64_t>> reference;
  for (std::uint32_t i = 0; i < 5000; ++i) {
    const auto t = static_cast<SimTime>(rng.uniform_index(300));  // many ties
    queue.push(t, &r, i);
    reference.emplace_back(t, i);
  }
  std::stable_sort(reference.begin(), reference.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const auto order = drain(queue);
  ASSERT_EQ(order.size(), reference.size());
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], reference[i].second) << i;
}

TYPED_TEST(EventQueueTest, CancelledEventsNeverRunAndStaleHandlesAreRejected) {
  TypeParam queue;
  Recorder r;
  std::vector<EventId> ids;
  for (std::uint32_t i = 0; i < 1000; ++i) ids.push_back(queue.push(static_cast<SimTime>(i), &r, i));
  for (std::size_t i = 0; i < ids.size(); i += 2) EXPECT_TRUE(queue.cancel(ids[i]));
  EXPECT_FALSE(queue.cancel(ids[0]));  // twice
  EXPECT_EQ(queue.size(), 500u);
  const auto order = drain(queue);
  ASSERT_EQ(order.size(), 500u);
  for (auto arg : order) EXPECT_EQ(arg % 2, 1u);
  // Slot reuse: an old handle must not cancel the new occupant of its slot.
  const EventId fresh = queue.push(7, &r, 99);
  EXPECT_FALSE(queue.cancel(ids[1]));
  EXPECT_EQ(queue.size(), 1u);
  EXPECT_TRUE(queue.cancel(fresh));
  EXPECT_EQ(queue.peek_time(), kTimeNever);
}

// Events far apart in time, as a cluster's are: most sit alone in their radix-heap bucket, the
// case the radix heap moves straight into bucket zero. Some of those lone events are cancelled,
// and new ones keep arriving between the ones pending.
TYPED_TEST(EventQueueTest, SparseEventsComeOutInOrderAndCancelledLoneOnesNever) {
  TypeParam queue;
  Recorder r;
  RandomStream rng(11);
  std::vector<std::pair<SimTime, std::uint32_t>> pending;  // the reference: (time, arg), live only
  std::vector<EventId> ids;
  std::uint32_t next_arg = 0;
  auto push = [&](SimTime time) {
    ids.push_back(queue.push(time, &r, next_arg));
    pending.emplace_back(time, next_arg++);
  };
  // Gaps from 1 ns to 2^40 ns: keys spread over every level of 6-bit digits.
  SimTime now = 0;
  for (int i = 0; i < 200; ++i) push(now += SimTime{1} << rng.uniform_index(41));
  std::size_t cancelled = 0;
  ScheduledEvent event;
  while (!pending.empty()) {
    // Cancel a pending event now and then, often the one that would come out next.
    if (rng.uniform_index(4) == 0) {
      const auto least = std::min_element(pending.begin(), pending.end());
      const auto victim = rng.uniform_index(2) == 0
                              ? least
                              : pending.begin() + static_cast<std::ptrdiff_t>(rng.uniform_index(pending.size()));
      ASSERT_TRUE(queue.cancel(ids[victim->second]));
      pending.erase(victim);
      ++cancelled;
      if (pending.empty()) break;
    }
    const auto least = std::min_element(pending.begin(), pending.end());
    ASSERT_TRUE(queue.pop(event));
    ASSERT_EQ(event.time, least->first);
    ASSERT_EQ(event.arg, least->second);
    pending.erase(least);
    if (next_arg < 2000) push(event.time + (SimTime{1} << rng.uniform_index(41)));
  }
  EXPECT_FALSE(queue.pop(event));
  EXPECT_GT(cancelled, 100u);
}

TYPED_TEST(EventQueueTest, ANullHandlerIsRefusedAndLeavesTheQueueAsItWas) {
  TypeParam queue;
  Recorder r;
  queue.push(5, &r, 1);
  EXPECT_THROW(queue.push(3, nullptr, 2), std::logic_error);
  EXPECT_EQ(queue.size(), 1u);
  EXPECT_EQ(drain(queue), std::vector<std::uint64_t>{1});
}

// next_hints() is a guess for prefetching: when it names an event, that is the next one popped,
// and when it names a second one, that is the one popped after it unless an event pushed in
// between runs first (times here are distinct, so no tie can reorder them); asking never changes
// the order.
TYPED_TEST(EventQueueTest, NextHintsNameTheNextTwoEventsAndChangeNothing) {
  TypeParam hinted;
  TypeParam plain;
  Recorder r;
  RandomStream rng(11);
  SimTime now = 0;
  std::uint32_t next_id = 0;
  std::vector<EventId> ids;
  std::set<SimTime> used;
  const auto push_both = [&](SimTime t) {
    while (!used.insert(t).second) ++t;
    ids.push_back(hinted.push(t, &r, next_id));
    plain.push(t, &r, next_id++);
  };
  for (int i = 0; i < 50; ++i) push_both(static_cast<SimTime>(i) * 1'000'003 + 7);
  std::size_t hints = 0;
  std::size_t second_hints = 0;
  for (int step = 0; step < 5'000; ++step) {
    if (step % 7 == 0) {
      const EventId id = ids[rng.uniform_index(ids.size())];
      EXPECT_EQ(hinted.cancel(id), plain.cancel(id));
    }
    ScheduledEvent next;
    ScheduledEvent after;
    const unsigned named = hinted.next_hints(next, after);
    ASSERT_LE(named, 2u);
    ScheduledEvent a;
    ScheduledEvent b;
    const bool popped = hinted.pop(a);
    ASSERT_EQ(popped, plain.pop(b));
    if (!popped) break;
    ASSERT_EQ(a.time, b.time);
    ASSERT_EQ(a.arg, b.arg);
    if (named >= 1) {
      ++hints;
      EXPECT_EQ(next.time, a.time);
      EXPECT_EQ(next.arg, a.arg);
      EXPECT_EQ(next.handler, a.handler);
    }
    if (named == 2) {
      // Nothing pushed yet since the hint: the second event named is the earliest left.
      ++second_hints;
      EXPECT_GT(after.time, next.time);
      EXPECT_EQ(after.time, hinted.peek_time());
      EXPECT_EQ(after.handler, &r);
    }
    now = a.time;
    // Distinct times, sparse (a cluster's arrivals and completions) or dense.
    const SimTime gap = step % 2 == 0 ? 1 + static_cast<SimTime>(rng.uniform_index(1'000'000'000)) : 1;
    push_both(now + gap);
  }
  if constexpr (std::is_same_v<TypeParam, RadixHeapQueue>) {
    EXPECT_GT(hints, 1'000u);  // the radix heap has a cheap guess most of the time
    EXPECT_GT(second_hints, 1'000u);
  } else {
    EXPECT_EQ(hints, 0u);  // the d-ary heaps offer none
  }
}

TYPED_TEST(EventQueueTest, CompactionKeepsOrderAfterMassCancellation) {
  TypeParam queue;
  Recorder r;
  std::vector<EventId> ids;
  for (std::uint32_t i = 0; i < 10'000; ++i) ids.push_back(queue.push(static_cast<SimTime>(10'000 - i), &r, i));
  for (std::uint32_t i = 0; i < 10'000; ++i) {
    if (i % 10 != 0) queue.cancel(ids[i]);
  }
  EXPECT_EQ(queue.size(), 1000u);
  const auto order = drain(queue);
  ASSERT_EQ(order.size(), 1000u);
  for (std::size_t i = 1; i < order.size(); ++i) EXPECT_GT(order[i - 1], order[i]);  // later arg = earlier time
}

// The simulator pushes only times >= now, interleaved with pops, and after a run stopped at
// `until` it may push below the next pending time: the radix heap must handle both.
TYPED_TEST(EventQueueTest, InterleavedHoldMatchesReferenceOrder) {
  TypeParam queue;
  Recorder r;
  RandomStream rng(9);
  std::vector<std::pair<SimTime, std::uint32_t>> reference;  // pending, as (time, id)
  std::uint32_t next_id = 0;
  for (int i = 0; i < 200; ++i) {
    const auto t = static_cast<SimTime>(rng.uniform_index(1000));
    queue.push(t, &r, next_id);
    reference.emplace_back(t, next_id++);
  }
  SimTime now = 0;
  for (int step = 0; step < 20'000; ++step) {
    if (step % 500 == 0) {
      // Peek past a stop time, then push below the peeked minimum.
      const SimTime next = queue.peek_time();
      if (next > now + 1) {
        queue.push(now + 1, &r, next_id);
        reference.emplace_back(now + 1, next_id++);
      }
    }
    ScheduledEvent event;
    ASSERT_TRUE(queue.pop(event));
    const auto best = std::min_element(reference.begin(), reference.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second < b.second;
    });
    ASSERT_EQ(event.time, best->first);
    ASSERT_EQ(event.arg, best->second);
    reference.erase(best);
    now = event.time;
    const int pushes = static_cast<int>(rng.uniform_index(3));  // 0, 1 or 2: the set drifts
    for (int p = 0; p < pushes || reference.empty(); ++p) {
      const SimTime t = now + static_cast<SimTime>(rng.uniform_index(50));  // ties with now happen
      queue.push(t, &r, next_id);
      reference.emplace_back(t, next_id++);
      if (!reference.empty() && p >= pushes) break;
    }
  }
  EXPECT_EQ(queue.size(), reference.size());
}

// Large and dense: 200,000 pending, many keys per bucket (chains of the radix heap's blocks,
// whose storage spans several chunks), blocks handed back and reused, cancellations that
// trigger a sweep of the whole set, and pushes below a peeked minimum (a rebuild).
TYPED_TEST(EventQueueTest, LargeDenseHoldWithCancellationsMatchesReferenceOrder) {
  TypeParam queue;
  Recorder r;
  RandomStream rng(23);
  std::set<std::pair<SimTime, std::uint32_t>> reference;  // (time, id): ids grow with push order
  std::vector<std::pair<EventId, SimTime>> handles;       // by id
  const auto push = [&](SimTime t) {
    const auto id = static_cast<std::uint32_t>(handles.size());
    handles.emplace_back(queue.push(t, &r, id), t);
    reference.emplace(t, id);
  };
  for (int i = 0; i < 200'000; ++i) push(static_cast<SimTime>(rng.uniform_index(20'000)));
  SimTime now = 0;
  for (int step = 0; step < 400'000; ++step) {
    if (step == 150'000) {
      // Cancel three in four of what is pending: more dead keys than live ones.
      std::size_t i = 0;
      for (auto it = reference.begin(); it != reference.end(); ++i) {
        if (i % 4 == 0) {
          ++it;
          continue;
        }
        ASSERT_TRUE(queue.cancel(handles[it->second].first));
        it = reference.erase(it);
      }
    }
    if (step % 50'000 == 25'000 && queue.peek_time() > now + 1) push(now + 1);
    ScheduledEvent event;
    ASSERT_TRUE(queue.pop(event));
    ASSERT_EQ(event.time, reference.begin()->first) << step;
    ASSERT_EQ(event.arg, reference.begin()->second) << step;
    reference.erase(reference.begin());
    now = event.time;
    // Mostly near (dense buckets, ties), sometimes far ahead.
    const SimTime ahead = step % 16 == 0 ? static_cast<SimTime>(rng.uniform_index(1'000'000'000))
                                         : static_cast<SimTime>(rng.uniform_index(4'096));
    push(now + ahead);
  }
  EXPECT_EQ(queue.size(), reference.size());
  const auto order = drain(queue);
  ASSERT_EQ(order.size(), reference.size());
  std::size_t i = 0;
  for (const auto& [time, id] : reference) ASSERT_EQ(order[i++], id);
}

struct Chain : EventHandler {
  Simulator* sim = nullptr;
  std::vector<SimTime> times;
  void on_event(std::uint32_t remaining) override {
    times.push_back(sim->now());
    if (remaining > 0) sim->schedule_in(10, *this, remaining - 1);
  }
};

TEST(Simulator, RunStopsAtUntilAndAdvancesClock) {
  Simulator sim;
  Chain chain;
  chain.sim = &sim;
  sim.schedule_at(0, chain, 100);
  sim.run(35);
  EXPECT_EQ(chain.times, (std::vector<SimTime>{0, 10, 20, 30}));
  EXPECT_EQ(sim.now(), 35);
  EXPECT_EQ(sim.events_processed(), 4u);
  sim.run();
  EXPECT_EQ(chain.times.size(), 101u);
  EXPECT_EQ(sim.now(), 1000);
}

// With many events pending, run() lets the handler of the event expected after next prefetch,
// and the handler of the event expected next follow what it asked for one event earlier; the
// guesses are right here (distinct times, nothing pushed), and they change nothing that runs.
struct PrefetchRecorder : EventHandler {
  static constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> ran;
  // Per event run: the events prefetched just before it, in call order, and the one followed, or
  // kNone.
  std::vector<std::vector<std::uint32_t>> prefetched_before;
  std::vector<std::uint32_t> followed_before;
  mutable std::vector<std::uint32_t> prefetches;
  mutable std::uint32_t last_followed = kNone;
  void on_event(std::uint32_t arg) override {
    ran.push_back(arg);
    prefetched_before.push_back(prefetches);
    followed_before.push_back(last_followed);
    prefetches.clear();
    last_followed = kNone;
  }
  void prefetch(std::uint32_t arg) const override { prefetches.push_back(arg); }
  void prefetch_followed(std::uint32_t arg) const override { last_followed = arg; }
};

TEST(Simulator, RunLetsTheNextTwoEventsHandlersPrefetchOnlyWhenManyArePending) {
  Simulator sim;
  PrefetchRecorder handler;
  constexpr std::uint32_t kEvents = 3000;
  constexpr std::uint32_t kNone = PrefetchRecorder::kNone;
  for (std::uint32_t i = 0; i < kEvents; ++i) sim.schedule_at(static_cast<SimTime>(i) * 1'000'003, handler, i);
  sim.run();
  ASSERT_EQ(handler.ran.size(), kEvents);
  std::size_t prefetched = 0;
  std::size_t followed = 0;
  for (std::uint32_t i = 0; i < kEvents; ++i) {
    EXPECT_EQ(handler.ran[i], i);
    // Before event i: at most events i + 1 and i + 2 prefetched; event i + 1 followed only when
    // it was prefetched before event i - 1, and then not prefetched again.
    const std::vector<std::uint32_t>& asked = handler.prefetched_before[i];
    for (const std::uint32_t arg : asked) EXPECT_TRUE(arg == i + 1 || arg == i + 2) << i << ": " << arg;
    if (!asked.empty()) ++prefetched;
    if (handler.followed_before[i] == kNone) continue;
    ++followed;
    EXPECT_EQ(handler.followed_before[i], i + 1) << i;
    ASSERT_GT(i, 0u);
    const std::vector<std::uint32_t>& asked_before = handler.prefetched_before[i - 1];
    EXPECT_NE(std::find(asked_before.begin(), asked_before.end(), i + 1), asked_before.end()) << i;
    EXPECT_EQ(std::find(asked.begin(), asked.end(), i + 1), asked.end()) << i;
  }
  // Asked while more than 1,024 events were pending: about the first 2,000 events, most of them
  // two deep.
  EXPECT_GT(prefetched, 1'500u);
  EXPECT_GT(followed, 1'000u);
  EXPECT_TRUE(handler.prefetched_before.back().empty());
  EXPECT_EQ(handler.followed_before.back(), kNone);
}

TEST(Simulator, RefusesEventsInThePast) {
  Simulator sim;
  Chain chain;
  chain.sim = &sim;
  sim.schedule_at(50, chain, 0);
  sim.run();
  EXPECT_THROW(sim.schedule_at(49, chain, 0), std::logic_error);
}

TEST(RandomStream, NamedStreamsAreIndependentAndReproducible) {
  RandomStream a1(7, "generator/train"), a2(7, "generator/train"), b(7, "generator/infer"), c(8, "generator/train");
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a1.next_u64(), a2.next_u64());
  RandomStream a3(7, "generator/train");
  EXPECT_NE(a3.next_u64(), b.next_u64());
  RandomStream a4(7, "generator/train");
  EXPECT_NE(a4.next_u64(), c.next_u64());
}

TEST(RandomStream, DistributionMomentsMatchWithinSamplingError) {
  RandomStream rng(1, "moments");
  constexpr int n = 400'000;
  double sum = 0, sum_sq = 0;
  for (int i = 0; i < n; ++i) {
    const double x = rng.exponential(3.0);
    sum += x;
    sum_sq += x * x;
  }
  const double mean = sum / n;
  // Standard error of the mean of an exponential is mean/sqrt(n) ~ 0.0047; allow 5 SE.
  EXPECT_NEAR(mean, 3.0, 5 * 3.0 / std::sqrt(n));
  EXPECT_NEAR(std::sqrt(sum_sq / n - mean * mean) / mean, 1.0, 0.02);

  double ln_sum = 0, ln_sq = 0;
  for (int i = 0; i < n; ++i) {
    const double x = rng.lognormal(10.0, 0.5);
    ln_sum += x;
    ln_sq += x * x;
  }
  const double ln_mean = ln_sum / n;
  EXPECT_NEAR(ln_mean, 10.0, 5 * 10.0 * 0.5 / std::sqrt(n));
  EXPECT_NEAR(std::sqrt(ln_sq / n - ln_mean * ln_mean) / ln_mean, 0.5, 0.02);

  // The exponential's whole shape, not just two moments: the empirical CDF at several points
  // against 1 - exp(-x) (Kolmogorov-Smirnov style, 5 standard errors of a proportion), the
  // tail beyond the ziggurat's r = 7.697 included.
  {
    RandomStream shape(2, "shape");
    const std::vector<double> points{0.01, 0.1, 0.5, 1, 2, 4, 7.5, 8, 10};
    std::vector<int> below(points.size(), 0);
    constexpr int draws = 2'000'000;
    for (int i = 0; i < draws; ++i) {
      const double x = shape.exponential(1.0);
      for (std::size_t p = 0; p < points.size(); ++p) below[p] += x < points[p];
    }
    for (std::size_t p = 0; p < points.size(); ++p) {
      const double expected = 1 - std::exp(-points[p]);
      const double se = std::sqrt(expected * (1 - expected) / draws);
      EXPECT_NEAR(static_cast<double>(below[p]) / draws, expected, 5 * se + 1e-7) << "x < " << points[p];
    }
  }

  std::vector<int> counts(7, 0);
  for (int i = 0; i < 70'000; ++i) ++counts[rng.uniform_index(7)];
  for (int count : counts) EXPECT_NEAR(count, 10'000, 5 * std::sqrt(10'000.0));
}

}  // namespace
}  // namespace sharesim
