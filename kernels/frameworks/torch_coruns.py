#!/usr/bin/env python3
"""Real framework jobs sharing one GPU: PyTorch training loops with host phases (docs/validation.md,
"Framework jobs: PyTorch").

Each job is a training loop (forward, backward, optimizer step, then a wait for the GPU, as a loop that
reads the loss does) followed by a host phase (a sleep drawn uniformly between 0.5 and 1.5 times its
mean, standing for data loading). Every job runs alone, then in pairs and triples, as separate
processes (the GPU time-slices them) and as clients of an MPS daemon this script starts in a temporary
directory and stops. Alone, nvidia-smi's utilization.gpu, utilization.memory and memory.used are
sampled every 100 ms: what an operator measures, and what `sharesim corun` takes.

It never changes the GPU's settings (no nvidia-smi -c/-mig/-pm/-lgc/-r). Needs python3 with torch and
a visible CUDA GPU; writes one JSON file:

    python3 kernels/frameworks/torch_coruns.py -o torch-coruns.json [--seconds 5] [--warmup 2]
"""
import argparse
import itertools
import json
import multiprocessing as mp
import os
import random
import shutil
import subprocess
import tempfile
import time

# name: (model, batch, mean host phase in ms). Chosen to span duty cycles and kernel sizes: a
# heavy convolutional net always busy, a lighter one and a transformer with data-loading waits, and
# a small MLP whose kernels do not fill the GPU.
JOBS = {
    "resnet50-b64": ("resnet50", 64, 0.0),
    "resnet18-b32-wait20": ("resnet18", 32, 20.0),
    "transformer-b32-wait40": ("transformer", 32, 40.0),
    "mlp-b256-wait2": ("mlp", 256, 2.0),
}
GROUPS = [list(c) for c in itertools.combinations(JOBS, 2)] + [[j, j] for j in JOBS] + [
    ["resnet50-b64", "resnet18-b32-wait20", "transformer-b32-wait40"],
    ["resnet18-b32-wait20", "transformer-b32-wait40", "mlp-b256-wait2"],
]


def build(model_name, batch, torch):
    import torch.nn as nn

    if model_name in ("resnet50", "resnet18"):
        import torchvision

        model = getattr(torchvision.models, model_name)(num_classes=1000)
        x = torch.randn(batch, 3, 224, 224)
        y = torch.randint(0, 1000, (batch,))
    elif model_name == "transformer":
        layer = nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048, batch_first=True)
        model = nn.Sequential(nn.TransformerEncoder(layer, num_layers=6), nn.Flatten(), nn.Linear(512 * 128, 10))
        x = torch.randn(batch, 128, 512)
        y = torch.randint(0, 10, (batch,))
    else:
        model = nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))
        x = torch.randn(batch, 1024)
        y = torch.randint(0, 10, (batch,))
    return model, x, y


def job_process(name, seed, warmup_s, seconds, start, results):
    import torch

    model_name, batch, host_ms = JOBS[name]
    torch.backends.cudnn.benchmark = True
    device = torch.device("cuda")
    model, x, y = build(model_name, batch, torch)
    model, x, y = model.to(device), x.to(device), y.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()
    rng = random.Random(seed)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
        if host_ms > 0:
            time.sleep(host_ms * rng.uniform(0.5, 1.5) / 1000.0)

    t_end = time.monotonic() + warmup_s
    while time.monotonic() < t_end:
        step()
    start.wait()  # every job of the case starts measuring together
    iterations, begin = 0, time.monotonic()
    while time.monotonic() - begin < seconds:
        step()
        iterations += 1
    elapsed = time.monotonic() - begin
    results.put((name, seed, iterations / elapsed, torch.cuda.max_memory_reserved() / 2**20))


def run_case(names, mode, env, warmup_s, seconds, smi_path):
    ctx = mp.get_context("spawn")
    start = ctx.Barrier(len(names) + 1)
    results = ctx.Queue()
    saved = dict(os.environ)
    os.environ.update(env)
    procs = [ctx.Process(target=job_process, args=(n, i + 1, warmup_s, seconds, start, results)) for i, n in enumerate(names)]
    for p in procs:
        p.start()
    os.environ.clear()
    os.environ.update(saved)
    start.wait(timeout=300)
    smi = None
    if smi_path:
        smi = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=utilization.gpu,utilization.memory,memory.used", "--format=csv,noheader,nounits", "-lms", "100"],
            stdout=subprocess.PIPE, text=True)
    out = [results.get(timeout=seconds + 300) for _ in names]
    samples = []
    if smi:
        smi.terminate()
        text, _ = smi.communicate()
        for line in text.splitlines():
            parts = [v.strip() for v in line.split(",")]
            try:
                samples.append([float(v) for v in parts])
            except ValueError:
                pass
    for p in procs:
        p.join(timeout=60)
        if p.exitcode != 0:
            raise RuntimeError(f"a job process of {names} under {mode} exited with {p.exitcode}")
    out.sort(key=lambda r: r[1])  # the order of `names`
    return {"mode": mode, "jobs": names, "iterations_per_s": [r[2] for r in out],
            "memory_reserved_mib": [round(r[3], 1) for r in out], "nvidia_smi": samples}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--modes", default="processes,mps", help="comma-separated: processes, mps")
    args = parser.parse_args()
    import torch

    cases = []
    # The device's name from nvidia-smi: this process creates no CUDA context of its own.
    name = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                          capture_output=True, text=True, check=True).stdout.strip().splitlines()[0]
    info = {"device": name, "torch": torch.__version__,
            "jobs": {n: {"model": m, "batch": b, "host_ms_mean": h} for n, (m, b, h) in JOBS.items()},
            "seconds": args.seconds, "warmup_s": args.warmup}
    tmp = tempfile.mkdtemp(prefix="sharesim-torch-")
    try:
        def save():  # after every case, so that a run cut short keeps what it measured
            with open(args.output + ".tmp", "w") as f:
                json.dump({"format": "sharesim-torch-coruns/1", **info, "cases": cases}, f, indent=1)
            os.replace(args.output + ".tmp", args.output)

        for mode in args.modes.split(","):
            env = {}
            if mode == "mps":
                env = {"CUDA_MPS_PIPE_DIRECTORY": tmp + "/pipe", "CUDA_MPS_LOG_DIRECTORY": tmp + "/log"}
                os.makedirs(env["CUDA_MPS_PIPE_DIRECTORY"])
                os.makedirs(env["CUDA_MPS_LOG_DIRECTORY"])
                subprocess.run(["nvidia-cuda-mps-control", "-d"], env={**os.environ, **env}, check=True)
            try:
                for name in JOBS:
                    print(f"{mode}: {name} alone", flush=True)
                    cases.append(run_case([name], mode, env, args.warmup, args.seconds, True))
                    save()
                for group in GROUPS:
                    print(f"{mode}: {' + '.join(group)}", flush=True)
                    cases.append(run_case(group, mode, env, args.warmup, args.seconds, False))
                    save()
            finally:
                if mode == "mps":
                    subprocess.run(["nvidia-cuda-mps-control"], input="quit\n", text=True, env={**os.environ, **env})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
