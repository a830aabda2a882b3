// The classic hold model (Jones, "An empirical comparison of priority-queue and event-set
// implementations", CACM 1986): keep N events pending; each hold pops the earliest and
// pushes one at that time plus an exponential increment. Reported: ns per hold.
#include <benchmark/benchmark.h>

#include <memory>

#include "sim/core/dary_heap_queue.h"
#include "sim/core/radix_heap_queue.h"
#include "sim/core/random_stream.h"

namespace sharesim {
namespace {

struct NullHandler : EventHandler {
  void on_event(std::uint32_t) override {}
};

template <typename Queue>
void BM_HoldModel(benchmark::State& state) {
  const auto pending = static_cast<std::size_t>(state.range(0));
  Queue queue;
  NullHandler handler;
  RandomStream rng(1, "hold");
  constexpr double kMeanIncrement = 1e6;  // ns
  for (std::size_t i = 0; i < pending; ++i) {
    queue.push(static_cast<SimTime>(rng.exponential(kMeanIncrement)), &handler, static_cast<std::uint32_t>(i));
  }
  // Warm up so the key distribution reaches its steady state before timing.
  ScheduledEvent event;
  for (std::size_t i = 0; i < pending; ++i) {
    queue.pop(event);
    queue.push(event.time + static_cast<SimTime>(rng.exponential(kMeanIncrement)), &handler, event.arg);
  }
  for (auto _ : state) {
    queue.pop(event);
    queue.push(event.time + static_cast<SimTime>(rng.exponential(kMeanIncrement)), &handler, event.arg);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["ns_per_hold"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The exponential draw is part of every hold (as in the classic model); its cost alone:
void BM_ExponentialDraw(benchmark::State& state) {
  RandomStream rng(1, "draw");
  double sum = 0;
  for (auto _ : state) sum += rng.exponential(1e6);
  benchmark::DoNotOptimize(sum);
}

BENCHMARK(BM_HoldModel<RadixHeapQueue>)->Name("hold/radix-heap")->Arg(1'000)->Arg(100'000)->Arg(1'000'000);
BENCHMARK(BM_HoldModel<DaryHeapQueue<4>>)->Name("hold/4-ary-heap")->Arg(1'000)->Arg(100'000)->Arg(1'000'000);
BENCHMARK(BM_HoldModel<DaryHeapQueue<2>>)->Name("hold/2-ary-heap")->Arg(1'000)->Arg(100'000)->Arg(1'000'000);
BENCHMARK(BM_HoldModel<DaryHeapQueue<8>>)->Name("hold/8-ary-heap")->Arg(1'000)->Arg(100'000)->Arg(1'000'000);
BENCHMARK(BM_ExponentialDraw)->Name("hold/exponential-draw-only");

}  // namespace
}  // namespace sharesim
