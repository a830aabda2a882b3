#!/usr/bin/env python3
"""Baseline for the e2e/MM8-1M-jobs benchmark: the same M/M/8 model in SimPy.

Eight servers, Poisson arrivals at rho = 0.8, exponential service of mean 100 s, 1,000,000
jobs; prints the mean wait and the wall time. Written for SimPy 2 (Debian's python3-simpy,
the SimPy.Simulation API) and for SimPy 3/4 (the `simpy` package), whichever is installed.
Not part of the test suite: run it by hand, e.g. `/usr/bin/python3 tests/bench/simpy_mm8.py`.
"""
import random
import sys
import time

JOBS = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
SERVERS, MEAN_SERVICE = 8, 100.0
RATE = 0.8 * SERVERS / MEAN_SERVICE


def run_simpy2():
    from SimPy.Simulation import Process, Resource, activate, hold, initialize, release, request, simulate, now

    waits = []

    class Job(Process):
        def run(self, gpus, service):
            arrived = now()
            yield request, self, gpus
            waits.append(now() - arrived)
            yield hold, self, service
            yield release, self, gpus

    class Source(Process):
        def run(self, gpus):
            for _ in range(JOBS):
                yield hold, self, random.expovariate(RATE)
                job = Job()
                activate(job, job.run(gpus, random.expovariate(1.0 / MEAN_SERVICE)))

    initialize()
    gpus = Resource(capacity=SERVERS)
    source = Source()
    activate(source, source.run(gpus))
    simulate(until=1e18)
    return waits


def run_simpy3():
    import simpy

    env = simpy.Environment()
    gpus = simpy.Resource(env, capacity=SERVERS)
    waits = []

    def job(service):
        arrived = env.now
        with gpus.request() as req:
            yield req
            waits.append(env.now - arrived)
            yield env.timeout(service)

    def source():
        for _ in range(JOBS):
            yield env.timeout(random.expovariate(RATE))
            env.process(job(random.expovariate(1.0 / MEAN_SERVICE)))

    env.process(source())
    env.run()
    return waits


if __name__ == "__main__":
    random.seed(1)
    start = time.perf_counter()
    try:
        import simpy  # noqa: F401
        flavour, waits = "simpy " + simpy.__version__, run_simpy3()
    except ImportError:
        flavour, waits = "SimPy 2 (SimPy.Simulation)", run_simpy2()
    wall = time.perf_counter() - start
    print(f"{flavour}: M/M/8, {len(waits)} jobs, mean wait {sum(waits) / len(waits):.2f} s, wall {wall:.2f} s")
