#!/usr/bin/env bash
# Installs exactly the Debian packages sharesim needs to build and test.
# Idempotent: prints nothing and touches nothing when everything is present.
set -euo pipefail

packages=(
  build-essential cmake
  libboost-graph-dev libeigen3-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libyaml-cpp-dev  # sharesim import k8s reads Kubernetes YAML (importers/k8s)
  python3  # tests/cli/cli_test.sh reads JSON outputs with it
  gnuplot-nox  # sharesim place-sweep draws its plots with it (docs/placement.md)
  libbenchmark-tools python3-scipy  # make bench: compare.py and its U test (docs/ci.md)
  python3-simpy3  # tests/bench/speed_targets.sh: the SimPy 3 M/M/8 model it compares with
  valgrind  # scripts/bench_instructions.sh: instruction counts of two benchmark builds (docs/ci.md)
  clang libclang-rt-14-dev  # make fuzz: libFuzzer harnesses (docs/reliability.md)
  slurm-wlm munge  # tests/integration/slurm_sweep_test.sh: a sweep as a Slurm array job (docs/sweeps.md)
  chromium  # the report test renders the HTML report headless (tests/report/)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
