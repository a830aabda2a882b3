# Thin wrapper over CMake presets (CMakePresets.json). The two quick-start commands:
#   make demo   install dependencies, build (release), run the flagship scenario
#   make test   install dependencies, build (dev: debug, warnings as errors), run ctest
# More: make bench (Google Benchmark, release), make speed-targets (issue 16's whole-process
# targets against SimPy; SPEED_ARGS=--big adds 10M jobs), make asan (tests under sanitizers), make fuzz
# (libFuzzer harnesses, FUZZ_SECONDS each), make clean.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEMO_SCENARIO ?= scenarios/compare-sharing.json
# Empty: compare's default, the policies whose registry entry lists them in the demo
# (policies/policy_entry.h); or a comma-separated list of policy names.
DEMO_POLICIES ?=

FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1

.PHONY: demo test bench speed-targets asan fuzz deps build-dev clean

deps:
	@scripts/install-deps.sh

build/release/CMakeCache.txt: | deps
	cmake --preset release

build/dev/CMakeCache.txt: | deps
	cmake --preset dev

build-dev: deps build/dev/CMakeCache.txt
	cmake --build --preset dev -j $(JOBS)

demo: deps build/release/CMakeCache.txt
	cmake --build --preset release -j $(JOBS) --target sharesim
	build/release/apps/sharesim compare $(DEMO_SCENARIO) $(if $(DEMO_POLICIES),--policies $(DEMO_POLICIES)) --report

test: build-dev
	ctest --preset dev -j $(JOBS)

bench: deps build/release/CMakeCache.txt
	cmake --build --preset release -j $(JOBS) --target sharesim_bench
	scripts/bench.sh build/release/tests/bench/sharesim_bench

speed-targets: deps build/release/CMakeCache.txt
	cmake --build --preset release -j $(JOBS) --target sharesim
	tests/bench/speed_targets.sh build/release/apps/sharesim $(SPEED_ARGS)

asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	ctest --preset asan -j $(JOBS)

# libFuzzer harnesses (clang): each runs FUZZ_SECONDS (docs/reliability.md "Fuzzing").
fuzz: deps
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS) --target fuzz_scenario fuzz_calibration fuzz_openb_csv fuzz_trace_native \
	  fuzz_trace_openb fuzz_trace_pai fuzz_trace_philly fuzz_trace_helios fuzz_trace_gavel \
	  fuzz_sweep_spec fuzz_k8s_nodes fuzz_k8s_plugin fuzz_k8s_mig fuzz_k8s_workload fuzz_k8s_scheduler
	scripts/fuzz.sh build/fuzz $(FUZZ_SECONDS) $(FUZZ_JOBS)

clean:
	rm -rf build
