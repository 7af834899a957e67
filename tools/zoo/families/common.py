"""What every zoo family shares: the Spec a family module returns for each model it offers,
input makers (token ids, padding masks, images) and the norm layers written out the way the
model families being imitated write them."""
import dataclasses
import math
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np
import torch
import torch.nn as nn

# Vocabulary of the token-id models: ids are drawn from [2, VOCAB); 0 and 1 are padding ids.
VOCAB = 1000


@dataclasses.dataclass
class Spec:
    """One zoo model. `make()` returns the torch module (random weights, put in eval mode by the
    builder); `inputs(rng, trace)` returns the named numpy inputs to trace with (trace=True) or
    to run and record expected outputs with (trace=False): they differ in their dynamic sizes
    where the model allows, so that a dimension the export baked in shows up as a mismatch.
    `outputs` names the flattened outputs of the module, in order; `dynamic_axes` follows
    torch.onnx.export. `decisions` lists output groups compared as decisions (argmax, NMS)."""
    name: str
    family: str
    make: Callable[[], nn.Module]
    inputs: Callable[[np.random.Generator, bool], Dict[str, np.ndarray]]
    outputs: List[str]
    dynamic_axes: Dict[str, Dict[int, str]]
    slices: Tuple[str, ...] = ("full",)
    opsets: Tuple[int, ...] = (14, 17)
    decisions: List[dict] = dataclasses.field(default_factory=list)
    note: Optional[str] = None
    # Called with the model and the run inputs (as tensors) after its random initialization.
    prepare: Optional[Callable[[nn.Module, tuple], None]] = None


def token_ids(rng, batch, seq, low=2):
    return rng.integers(low, VOCAB, size=(batch, seq), dtype=np.int64)


def padding_mask(batch, length, padded=3, left=False):
    """Ones, with the last (or first) `padded` positions of every second row set to 0."""
    mask = np.ones((batch, length), dtype=np.int64)
    for row in range(1, batch, 2):
        if left:
            mask[row, :padded] = 0
        else:
            mask[row, length - padded:] = 0
    return mask


def images(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


class RMSNorm(nn.Module):
    """T5's and LLaMA's norm: no mean, no bias, computed in float32."""

    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden) + 0.1 * torch.randn(hidden))
        self.eps = eps

    def forward(self, x):
        variance = x.to(torch.float32).pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(variance + self.eps)
        return self.weight * x


def layer_norm(hidden, eps=1e-12):
    """nn.LayerNorm with non-trivial affine parameters (opset < 17 exports it decomposed,
    opset 17 as one LayerNormalization)."""
    norm = nn.LayerNorm(hidden, eps=eps)
    with torch.no_grad():
        norm.weight.add_(0.1 * torch.randn(hidden))
        norm.bias.add_(0.1 * torch.randn(hidden))
    return norm


def gelu_tanh(x):
    """GPT-2's gelu_new, written out (the tanh form)."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def sinusoids(length, channels, max_timescale=10000):
    """Whisper's sinusoidal position table."""
    log_timescale_increment = math.log(max_timescale) / (channels // 2 - 1)
    inv_timescales = torch.exp(-log_timescale_increment * torch.arange(channels // 2))
    scaled_time = torch.arange(length)[:, None] * inv_timescales[None, :]
    return torch.cat([torch.sin(scaled_time), torch.cos(scaled_time)], dim=1)
