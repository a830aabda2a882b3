#!/usr/bin/env python3
"""Writes the inference workload profiles (scenarios/profiles/*-infer-b1.json) from published
serving measurements.

Every number below is typed in from the publication named beside it (docs/profiles.md,
"Inference profiles from published serving measurements"); everything else is derived from
those numbers by the formula written into the profile's `provenance`. Run from the repository
root:

    python3 scripts/inference_profiles.py

The output is deterministic; the unit test WorkloadProfileLibrary.PublishedProfilesDeriveTheirNumbers
recomputes the derived numbers from the files.
"""
import json
import os

MIB = 2**20
LICENCE = ("not applicable: figures quoted from the publication named in source and provenance, "
           "with their source; no data file is copied")


def rounded(x, digits):
    return float(f"{x:.{digits}f}")


def batch_share(throughput):
    """sm (and bw where the source says nothing of bandwidth): throughput at batch 1 over the
    highest throughput measured at any batch size."""
    best_batch = max(throughput, key=lambda b: (throughput[b], -b))
    return throughput[1] / throughput[best_batch], best_batch


def share_formula(throughput, best_batch, share, unit):
    return (f"throughput at batch 1 / highest throughput measured = {throughput[1]:g} / "
            f"{throughput[best_batch]:g} {unit} (batch {best_batch}) = {share:.4f}: the share of the GPU's "
            f"serving capacity one batch-1 request keeps busy (an upper bound, since the highest batch "
            f"measured need not saturate the GPU); the source gives no SM or bandwidth counter")


def bandwidth_as_sm(source):
    """/demand/bw's provenance where the source measures no bandwidth."""
    return {"provenance": "derived", "source": source,
            "formula": "the same share as /demand/sm: the source measures no bandwidth, so the batch-1 "
                       "request is taken to keep this share of every resource busy"}


def fp16_weights_memory(parameters, mib, source):
    """Provenance of a serving profile's mem_mib taken as its FP16 weights (`parameters` as the
    source writes the count)."""
    return {"provenance": "derived", "source": source,
            "formula": f"{parameters} parameters x 2 bytes (FP16) / 2^20 = {mib} MiB: the weights alone, a "
                       "lower bound (no CUDA context, TensorRT workspace or activations)"}


def write(profile):
    path = os.path.join("scenarios", "profiles", profile["name"] + ".json")
    with open(path, "w") as f:
        f.write(json.dumps(profile, indent=2, sort_keys=True) + "\n")
    print("wrote", path)


# ---- BERT-base, TensorRT, A100-40GB ---------------------------------------------------------
BERT_SRC = ("NVIDIA TensorRT, demo/BERT/README.md, section 'Inference performance: NVIDIA A100 (40GB)', "
            "table 'BERT Base', sequence length 128, FP16 latency columns (github.com/NVIDIA/TensorRT, "
            "commit 007c34702bc7878285e3123eb39829a1f9aef3f0)")
# FP16 average latency (ms) by batch size, sequence length 128.
bert_latency_ms = {1: 0.67, 2: 0.83, 4: 1.02, 8: 1.38, 12: 1.87, 16: 2.18, 24: 3.34, 32: 4.10, 64: 8.05,
                   128: 16.14}
bert_p99_ms = 0.83
bert_params = 110e6  # Devlin et al., section 3: BERT-BASE ... Total Parameters=110M
bert_tput = {b: rounded(b / (ms / 1000), 2) for b, ms in bert_latency_ms.items()}
bert_share, bert_best = batch_share(bert_tput)
bert_mem = round(bert_params * 2 / MIB)
bert_prov = {
    "/serving/request_s": {"provenance": "documented",
                           "source": BERT_SRC + ": batch 1, average 0.67 ms"},
    "/serving/request_p99_s": {"provenance": "documented",
                               "source": BERT_SRC + ": batch 1, 99th percentile 0.83 ms"},
    "/demand/sm": {"provenance": "derived", "source": BERT_SRC,
                   "formula": share_formula(bert_tput, bert_best, bert_share, "sequences/s")},
    "/demand/bw": bandwidth_as_sm(BERT_SRC),
    "/demand/mem_mib": fp16_weights_memory("110e6", bert_mem,
                                           "Devlin et al., 'BERT: Pre-training of Deep Bidirectional Transformers "
                                           "for Language Understanding', NAACL 2019, section 3: BERT-BASE, Total "
                                           "Parameters=110M"),
}
for b, ms in bert_latency_ms.items():
    bert_prov[f"/serving/throughput_per_s/{b}"] = {
        "provenance": "derived", "source": BERT_SRC,
        "formula": f"batch / average latency = {b} / {ms:.2f} ms = {bert_tput[b]:g} sequences/s"}
write({
    "name": "bert-base-infer-b1",
    "description": "BERT-base (sequence length 128) served one request at a time with TensorRT FP16, "
                   "as measured on an A100-40GB",
    "demand": {"sm": rounded(bert_share, 4), "bw": rounded(bert_share, 4), "mem_mib": bert_mem},
    "serving": {"gpu": "A100-40GB",
                "setup": "TensorRT demoBERT, FP16, sequence length 128, scripts/inference_benchmark.sh "
                         "--gpu Ampere; the times exclude host-device copies",
                "request_s": bert_latency_ms[1] / 1000, "request_p99_s": bert_p99_ms / 1000,
                "throughput_per_s": {str(b): v for b, v in bert_tput.items()}},
    "source": BERT_SRC,
    "licence": LICENCE,
    "provenance": bert_prov,
})

# ---- ResNet-50 v1.5, Triton + TensorRT, A100-80GB --------------------------------------------
RN_SRC = ("NVIDIA DeepLearningExamples, PyTorch/Classification/ConvNets/triton/resnet50/README.md, "
          "section 'Offline: NVIDIA DGX A100 (1x A100 80GB), ONNX Runtime TensorRT with FP16', full "
          "tabular data (github.com/NVIDIA/DeepLearningExamples, commit "
          "49e23b4597a6fca461321a085d8eb8abf1e215e2)")
# Inferences/second by client batch size.
rn_tput = {1: 469.1, 2: 910.0, 4: 1447.6, 8: 2051.2, 16: 2760.0, 32: 2857.6, 64: 2534.4, 128: 2662.4}
rn_avg_ms, rn_p99_ms = 2.128, 2.272
rn_params = 25557032  # torchvision ResNet50_Weights.IMAGENET1K_V1 num_params
rn_share, rn_best = batch_share(rn_tput)
rn_mem = round(rn_params * 2 / MIB)
rn_prov = {
    "/serving/request_s": {"provenance": "documented",
                           "source": RN_SRC + ": client batch size 1, Avg Latency 2.128 ms"},
    "/serving/request_p99_s": {"provenance": "documented",
                               "source": RN_SRC + ": client batch size 1, P99 Latency 2.272 ms"},
    "/demand/sm": {"provenance": "derived", "source": RN_SRC,
                   "formula": share_formula(rn_tput, rn_best, rn_share, "inferences/s")},
    "/demand/bw": bandwidth_as_sm(RN_SRC),
    "/demand/mem_mib": fp16_weights_memory("25557032", rn_mem,
                                           "torchvision documentation, torchvision.models.resnet50, "
                                           "ResNet50_Weights.IMAGENET1K_V1: num_params 25557032 "
                                           "(pytorch.org/vision/stable/models/generated/"
                                           "torchvision.models.resnet50.html; torchvision's ResNet-50 is the "
                                           "v1.5 variant)"),
}
for b, v in rn_tput.items():
    rn_prov[f"/serving/throughput_per_s/{b}"] = {
        "provenance": "documented", "source": RN_SRC + f": client batch size {b}, {v:g} inferences/second"}
write({
    "name": "resnet50-infer-b1",
    "description": "ResNet-50 v1.5 image classification served by Triton (ONNX Runtime with the TensorRT "
                   "accelerator, FP16) one request at a time, as measured on an A100-80GB",
    "demand": {"sm": rounded(rn_share, 4), "bw": rounded(rn_share, 4), "mem_mib": rn_mem},
    "serving": {"gpu": "A100-80GB",
                "setup": "Triton Inference Server, ONNX Runtime + TensorRT, FP16, offline scenario, one model "
                         "instance; latency as the Triton client sees it",
                "request_s": rn_avg_ms / 1000, "request_p99_s": rn_p99_ms / 1000,
                "throughput_per_s": {str(b): v for b, v in rn_tput.items()}},
    "source": RN_SRC,
    "licence": LICENCE,
    "provenance": rn_prov,
})

# ---- Llama-2-7B, NeMo (TensorRT-LLM), H100-80GB ----------------------------------------------
LL_SRC = ("NVIDIA NeMo Framework User Guide, Performance, 'Llama-2 Results', 'Inference Performance', "
          "Configuration 1: Chatbot Conversation use case (input 128 tokens, output 20 tokens), table "
          "'Average Latency, Average Throughput, and Model Size', rows Llama-2-7B, TP 1, PP 1, 1 GPU, "
          "column H100 80GB HBM3 (docs.nvidia.com/nemo-framework/user-guide/latest/performance/llama.html)")
CONFIG_SRC = ("meta-llama/Llama-2-7b-hf config.json on Hugging Face (vocab_size 32000, hidden_size 4096, "
              "intermediate_size 11008, num_hidden_layers 32, num_key_value_heads 32, tie_word_embeddings "
              "false, torch_dtype float16; the same file in public copies such as "
              "huggingface.co/philschmid/Llama-2-7b-hf, commit 5cf88eca9b61635bca05852e274f61b17f820481)")
ll_tput = {1: 6.5, 2: 12.4, 4: 22.9, 8: 40.2}  # sentences/s
ll_latency_s = 0.1538  # batch 1 average latency
ll_share, ll_best = batch_share(ll_tput)
vocab, hidden, inter, layers = 32000, 4096, 11008, 32
ll_params = 2 * vocab * hidden + layers * (4 * hidden * hidden + 3 * hidden * inter + 2 * hidden) + hidden
assert ll_params == 6738415616
ll_weight_bytes = ll_params * 2
tokens_in, tokens_out = 128, 20
kv_bytes_per_token = 2 * layers * hidden * 2
ll_mem = -(-(ll_weight_bytes + (tokens_in + tokens_out) * kv_bytes_per_token) // MIB)  # ceil
h100_bw_gbps = 2990.2  # results/calibration/H100-80GB.json basics.dram_bandwidth_gbps (measured)
ll_bw = ll_weight_bytes * tokens_out / ll_latency_s / (h100_bw_gbps * 1e9)
ll_prov = {
    "/serving/request_s": {"provenance": "documented",
                           "source": LL_SRC + ": batch size 1, Average Latency 153.8 ms"},
    "/demand/sm": {"provenance": "derived", "source": LL_SRC,
                   "formula": share_formula(ll_tput, ll_best, ll_share, "sentences/s")},
    "/demand/bw": {"provenance": "derived",
                   "source": LL_SRC + "; " + CONFIG_SRC + "; results/calibration/H100-80GB.json "
                             "basics.dram_bandwidth_gbps 2990.2 (measured on the lent H100 80GB HBM3)",
                   "formula": f"every output token reads all weights once (the first from the prefill): "
                              f"{ll_weight_bytes} bytes x {tokens_out} tokens / 0.1538 s / 2990.2 GB/s = "
                              f"{ll_bw:.4f} of the measured DRAM bandwidth, averaged over the request (a lower "
                              "bound: KV-cache and activation traffic are left out)"},
    "/demand/mem_mib": {"provenance": "derived",
                        "source": CONFIG_SRC + "; " + LL_SRC + "; vLLM engine arguments documentation "
                                  "(docs.vllm.ai), --gpu-memory-utilization: default 0.9",
                        "formula": f"weights: (2 x 32000 x 4096 + 32 x (4 x 4096^2 + 3 x 4096 x 11008 + 2 x "
                                   f"4096) + 4096) = {ll_params} parameters x 2 bytes (FP16) = {ll_weight_bytes} "
                                   f"bytes; KV cache of the measured request: (128 + 20) tokens x 2 x 32 layers x "
                                   f"4096 x 2 bytes = {(tokens_in + tokens_out) * kv_bytes_per_token} bytes; sum / "
                                   f"2^20, rounded up = {ll_mem} MiB: a lower bound (no CUDA context, runtime "
                                   "workspace or a serving engine's preallocated KV cache: vLLM takes "
                                   "gpu_memory_utilization = 0.9 of the GPU by default)"},
}
for b, v in ll_tput.items():
    ll_prov[f"/serving/throughput_per_s/{b}"] = {
        "provenance": "documented", "source": LL_SRC + f": batch size {b}, Average Throughput {v:g} sentences/s"}
write({
    "name": "llama2-7b-infer-b1",
    "description": "Llama-2-7B chat completion (128 input tokens, 20 output tokens) served one request at a "
                   "time by NeMo with TensorRT-LLM, FP16, one GPU, as measured on an H100-80GB",
    "demand": {"sm": rounded(ll_share, 4), "bw": rounded(ll_bw, 4), "mem_mib": ll_mem},
    "serving": {"gpu": "H100-80GB",
                "setup": "NeMo Framework inference (TensorRT-LLM), FP16, tensor parallel 1, input 128 tokens, "
                         "output 20 tokens; a request is one sentence",
                "request_s": ll_latency_s,
                "throughput_per_s": {str(b): v for b, v in ll_tput.items()}},
    "source": LL_SRC,
    "licence": LICENCE,
    "provenance": ll_prov,
})

# ---- Stable Diffusion v1.5, diffusers, A100-80GB ----------------------------------------------
SD_SRC = ("fal-ai/stable-diffusion-benchmarks, README.md, table 'SD1.5 (End-to-end) Benchmarks', row "
          "'Diffusers (torch 2.1, SDPA)', on an A100 80G SXM; 50 inference steps, 512x512, fp16 weights "
          "(github.com/fal-ai/stable-diffusion-benchmarks, commit 0490f6951258c06b3a930420cf9da63015677a53)")
SCALE_SRC = ("Hugging Face diffusers documentation, docs/source/en/optimization/torch2.0.mdx, 'Benchmark', "
             "tables 'A100 (batch size: 1)', '(batch size: 4)', '(batch size: 16)', row 'SD - txt2img', column "
             "'torch 2.0 - no compile' (iterations per second of runwayml/stable-diffusion-v1-5, fp16; "
             "github.com/huggingface/diffusers, commit 07dc8feb1d54c93adb9a7443a48a6741e1dbf43f)")
sd_its = {1: 21.66, 4: 11.6, 16: 3.04}  # denoising iterations per second by batch size
steps = 50  # StableDiffusionPipeline default num_inference_steps
sd_tput = {b: rounded(its * b / steps, 4) for b, its in sd_its.items()}
sd_share = sd_its[1] / max(its * b for b, its in sd_its.items())
sd_best = max(sd_its, key=lambda b: sd_its[b] * b)
sd_latency_s = 1.591
sd_unet, sd_text = 860e6, 123e6
sd_mem = round((sd_unet + sd_text) * 2 / MIB)
sd_prov = {
    "/serving/request_s": {"provenance": "documented", "source": SD_SRC + ": mean 1.591 s per image"},
    "/demand/sm": {"provenance": "derived", "source": SCALE_SRC,
                   "formula": f"images/s at batch 1 / highest images/s measured = (21.66 it/s x 1) / (3.04 it/s "
                              f"x 16) = {sd_share:.4f}: the share of the GPU's serving capacity one batch-1 "
                              "request keeps busy (an upper bound, since batch 16 need not saturate the GPU; "
                              "measured on an A100 with torch 2.0, an older stack than request_s's); the source "
                              "gives no SM or bandwidth counter"},
    "/demand/bw": bandwidth_as_sm(SCALE_SRC),
    "/demand/mem_mib": {"provenance": "derived",
                        "source": "CompVis/stable-diffusion README (github.com/CompVis/stable-diffusion), "
                                  "'Stable Diffusion v1': an 860M UNet and 123M text encoder",
                        "formula": f"(860e6 + 123e6) parameters x 2 bytes (fp16) / 2^20 = {sd_mem} MiB: UNet and "
                                   "text encoder weights alone, a lower bound (no VAE, CUDA context or "
                                   "activations)"},
}
for b, its in sd_its.items():
    sd_prov[f"/serving/throughput_per_s/{b}"] = {
        "provenance": "derived", "source": SCALE_SRC,
        "formula": f"{its:g} iterations/s x batch {b} / {steps} steps per image (the pipeline's default "
                   f"num_inference_steps) = {sd_tput[b]:g} images/s"}
write({
    "name": "sd15-infer-b1",
    "description": "Stable Diffusion v1.5 text-to-image (512x512, 50 steps, fp16) served one image at a "
                   "time with diffusers, as measured on an A100-80GB",
    "demand": {"sm": rounded(sd_share, 4), "bw": rounded(sd_share, 4), "mem_mib": sd_mem},
    "serving": {"gpu": "A100-80GB",
                "setup": "diffusers with PyTorch 2.1 scaled-dot-product attention, fp16, 512x512, 50 steps, "
                         "end to end (text encoder, denoising, VAE decode)",
                "request_s": sd_latency_s,
                "throughput_per_s": {str(b): v for b, v in sd_tput.items()}},
    "source": SD_SRC,
    "licence": LICENCE,
    "provenance": sd_prov,
})
