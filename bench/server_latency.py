#!/usr/bin/env python3
"""How long the language server takes from didChange to publishDiagnostics on a large .cu file.

Usage: python bench/server_latency.py [--lines 5000] [--edits 200] [--warmup 20] [--tool PATH] [--keep FILE]

Writes a .cu file of --lines lines with realistic guards (the forms of the real trees: version
checks with and without a ROCm macro, `#ifdef USE_ROCM`, `__CUDA_ARCH__` and `HIP_VERSION` tests,
nested groups, CUDA API calls under guards; about one directive line in seven, a finding in
sixty), opens it in `hipify-guard server` (a subprocess spoken to over stdio as an editor
does, with tests/lsp_client.py), sends --warmup edits, then --edits one-character edits at
seeded random lines (half of them in directive lines, which changes the findings), each a
whole-text didChange as the server asks for, and times each until the publishDiagnostics of
that version arrives. Prints the median and p90 of those times, the server's CPU time per edit
(user + system, from /proc), the findings published and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "tests")]

from lsp_client import LanguageClient  # noqa: E402

BLOCK = """\
// ---- block {i}: {name} ----
#if defined(CUDA_VERSION) && CUDA_VERSION >= {modern}
#include <cuda_bf16.h>
#endif
template <typename T, int kThreads = {threads}>
__global__ void {name}_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t n) {{
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (idx >= n) {{
    return;
  }}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {arch}
  T value = __ldg(in + idx);
#else
  T value = in[idx];
#endif
  for (int offset = 16; offset > 0; offset /= 2) {{
#if !defined(USE_ROCM) && CUDA_VERSION >= 9000
    value += __shfl_down_sync(0xffffffff, value, offset);
#else
    value += __shfl_down(value, offset);
#endif
  }}
  out[idx] = value * static_cast<T>({scale});
}}

#ifdef USE_ROCM
#if HIP_VERSION >= {hip}
#define {upper}_USE_FAST_PATH 1
#endif
#elif CUDA_VERSION {legacy_op} {legacy}
#define {upper}_USE_FAST_PATH 0
#endif

void {name}_launch(const float* in, float* out, int64_t n, cudaStream_t stream) {{
  const dim3 grid((n + {threads} - 1) / {threads});
  const dim3 block({threads});
  {name}_kernel<float><<<grid, block, 0, stream>>>(in, out, n);
#if CUDA_VERSION < {legacy}
  cudaStreamSynchronize(stream);  // old toolkits need it
#endif
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}}

"""
HOST = """\
at::Tensor {name}_forward(const at::Tensor& input, const at::Tensor& weight, double eps, int64_t groups) {{
  TORCH_CHECK(input.is_cuda(), "{name}: input must be a CUDA tensor");
  TORCH_CHECK(weight.is_cuda(), "{name}: weight must be a CUDA tensor");
  TORCH_CHECK(input.dim() >= 2, "{name}: input must have at least two dimensions");
  TORCH_CHECK(input.size(-1) == weight.size(0), "{name}: the last dimension must match the weight");
  TORCH_CHECK(groups > 0 && input.size(1) % groups == 0, "{name}: groups must divide the channels");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
  auto output = at::empty_like(input);
  const int64_t rows = input.numel() / input.size(-1);
  const int64_t cols = input.size(-1);
  if (rows == 0 || cols == 0) {{
    return output;
  }}
  auto stream = at::cuda::getCurrentCUDAStream();
  const float* in = input.data_ptr<float>();
  float* out = output.data_ptr<float>();
  for (int64_t row = 0; row < rows; row += {threads}) {{
    const int64_t count = std::min<int64_t>({threads}, rows - row);
    {name}_launch(in + row * cols, out + row * cols, count * cols, stream);
  }}
  return output;
}}

std::vector<at::Tensor> {name}_backward(const at::Tensor& grad, const at::Tensor& input, const at::Tensor& weight) {{
  TORCH_CHECK(grad.sizes() == input.sizes(), "{name}: gradient and input shapes differ");
  auto grad_input = at::zeros_like(input);
  auto grad_weight = at::zeros_like(weight);
  const int64_t cols = input.size(-1);
  const int64_t rows = input.numel() / cols;
  auto stream = at::cuda::getCurrentCUDAStream();
  {name}_launch(grad.data_ptr<float>(), grad_input.data_ptr<float>(), rows * cols, stream);
  grad_weight.copy_(grad.reshape({{rows, cols}}).sum(0));
  return {{grad_input, grad_weight}};
}}

struct {upper}_Config {{
  int64_t threads = {threads};
  int64_t max_rows = 1 << 20;
  double eps = 1e-5;
  bool deterministic = false;

  bool valid() const {{
    return threads > 0 && threads <= 1024 && max_rows > 0 && eps > 0;
  }}

  std::string describe() const {{
    std::ostringstream text;
    text << "{name}(threads=" << threads << ", max_rows=" << max_rows << ", eps=" << eps
         << ", deterministic=" << deterministic << ")";
    return text.str();
  }}
}};

static int64_t {name}_blocks(int64_t n, int64_t threads) {{
  const int64_t blocks = (n + threads - 1) / threads;
  return std::min<int64_t>(blocks, 65535);
}}

static void {name}_check_stream(cudaStream_t stream) {{
  const cudaError_t status = cudaStreamQuery(stream);
  TORCH_CHECK(status == cudaSuccess || status == cudaErrorNotReady, "{name}: bad stream state");
}}

void {name}_register(torch::Library& library) {{
  library.def("{name}_forward(Tensor input, Tensor weight, float eps, int groups) -> Tensor");
  library.def("{name}_backward(Tensor grad, Tensor input, Tensor weight) -> Tensor[]");
  library.impl("{name}_forward", torch::kCUDA, &{name}_forward);
  library.impl("{name}_backward", torch::kCUDA, &{name}_backward);
}}

// {name}: the reference implementation the tests compare against lives in
// test/{name}_reference.py; keep the two in step when the kernel above changes.
// Shapes: input [rows, cols], weight [cols]; output like input. The kernel reads
// each element once and writes it once, so it is bound by memory bandwidth; the
// launch above splits very long inputs so that the grid stays within its limits.

"""
NAMES = ("gather", "scatter", "reduce", "softmax", "layer_norm", "rotary", "quantize", "dequantize", "topk", "gelu")


def source(lines: int) -> str:
    """A .cu file of about `lines` lines, block after block (deterministic)."""
    draw = random.Random(17)
    blocks, count, index = [], 0, 0
    while count < lines:
        name = f"{NAMES[index % len(NAMES)]}_{index}"
        values = dict(i=index, name=name, upper=name.upper(), modern=draw.choice((11000, 11080, 12000)),
                      threads=draw.choice((128, 256, 512)), arch=draw.choice((700, 800, 900)),
                      scale=draw.randint(2, 9), hip=draw.choice((50200000, 60000000)),
                      legacy_op=draw.choice(("<", ">=")), legacy=draw.choice((10020, 11000, 11040)))
        block = BLOCK.format(**values) + HOST.format(**values)
        blocks.append(block)
        count += block.count("\n")
        index += 1
    return "".join(blocks)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def edited(text: str, draw: random.Random, directive: bool) -> str:
    """`text` with one character inserted or removed at a random line (a directive line or not)."""
    lines = text.split("\n")
    candidates = [n for n, line in enumerate(lines) if line.startswith("#") == directive and line.strip()]
    number = draw.choice(candidates)
    line = lines[number]
    if line.endswith(" "):
        lines[number] = line[:-1]
    elif directive and line.rstrip()[-1:].isdigit():
        lines[number] = line[:-1] + str((int(line[-1]) + 1) % 10)
    else:
        lines[number] = line + " "
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--tool", help="the hipify-guard command to run (default: this Python's)")
    parser.add_argument("--keep", type=Path, help="also write the generated file here")
    options = parser.parse_args()
    text = source(options.lines)
    if options.keep:
        options.keep.write_text(text)
    folder = Path(tempfile.mkdtemp(prefix="hipify-guard-latency-"))
    command = [options.tool, "server"] if options.tool else [sys.executable, "-m", "hipify_guard", "server"]
    load_before = os.getloadavg()
    client = LanguageClient(cwd=folder, command=command)
    try:
        client.initialize(folder)
        uri = client.open(folder / "kernels.cu", text)
        published = client.diagnostics(uri, 1)
        draw = random.Random(5)
        wall, version = [], 1
        cpu_start = 0.0
        for number in range(options.warmup + options.edits):
            if number == options.warmup:
                cpu_start = cpu_seconds(client.process.pid)
            text = edited(text, draw, directive=number % 2 == 0)
            version += 1
            start = time.perf_counter()
            client.change(uri, text, version)
            published = client.diagnostics(uri, version)
            if number >= options.warmup:
                wall.append(time.perf_counter() - start)
        cpu = (cpu_seconds(client.process.pid) - cpu_start) / options.edits
        client.close()
    finally:
        client.kill()
    wall.sort()
    p90 = wall[min(len(wall) - 1, int(0.9 * len(wall)))]
    print(f"file: {text.count(chr(10))} lines, {len(text.encode()):,} bytes, "
          f"{sum(line.startswith('#') for line in text.splitlines())} directives, {len(published)} findings published")
    print(f"didChange -> publishDiagnostics over {options.edits} edits (after {options.warmup} warm-up edits): "
          f"median {statistics.median(wall) * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, "
          f"min {wall[0] * 1000:.1f} ms, max {wall[-1] * 1000:.1f} ms")
    print(f"server CPU time per edit: {cpu * 1000:.1f} ms (user + system)")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in load_before)}, "
          f"after: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
