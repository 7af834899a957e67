"""Decoder families written the way Hugging Face writes them: GPT-2 (packed QKV Conv1D + split,
causal mask sliced from a buffer and applied with Where, past key/values in, present out, tanh
GELU, tied head, argmax next token), LLaMA (RMSNorm, rotary embeddings with rotate_half,
grouped-query attention by expand + reshape, SwiGLU, KV cache) and T5 (encoder-decoder, relative
position buckets, RMS norm, unscaled scores, cross attention)."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from .common import VOCAB, RMSNorm, Spec, gelu_tanh, layer_norm, padding_mask, token_ids

MAX_POSITIONS = 256


class Conv1D(nn.Module):
    """GPT-2's transposed Linear: addmm over the flattened rows."""

    def __init__(self, nf, nx):
        super().__init__()
        self.nf = nf
        self.weight = nn.Parameter(0.02 * torch.randn(nx, nf))
        self.bias = nn.Parameter(0.02 * torch.randn(nf))

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        return torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight).view(size_out)


class Gpt2Block(nn.Module):
    attention_blocks = 1

    def __init__(self, hidden, heads):
        super().__init__()
        self.heads, self.head_size, self.hidden = heads, hidden // heads, hidden
        self.ln_1, self.ln_2 = layer_norm(hidden, 1e-5), layer_norm(hidden, 1e-5)
        self.c_attn, self.c_proj = Conv1D(3 * hidden, hidden), Conv1D(hidden, hidden)
        self.c_fc, self.mlp_proj = Conv1D(4 * hidden, hidden), Conv1D(hidden, 4 * hidden)
        bias = torch.tril(torch.ones((MAX_POSITIONS, MAX_POSITIONS), dtype=torch.bool))
        self.register_buffer("bias", bias.view(1, 1, MAX_POSITIONS, MAX_POSITIONS))

    def split_heads(self, x):
        return x.view(x.size()[:-1] + (self.heads, self.head_size)).permute(0, 2, 1, 3)

    def attention(self, x, past_key, past_value, mask):
        query, key, value = self.c_attn(x).split(self.hidden, dim=2)
        query, key, value = self.split_heads(query), self.split_heads(key), self.split_heads(value)
        key, value = torch.cat((past_key, key), dim=-2), torch.cat((past_value, value), dim=-2)
        weights = torch.matmul(query, key.transpose(-1, -2))
        weights = weights / torch.full([], value.size(-1) ** 0.5, dtype=weights.dtype)
        query_length, key_length = query.size(-2), key.size(-2)
        causal = self.bias[:, :, key_length - query_length:key_length, :key_length]
        mask_value = torch.full([], torch.finfo(weights.dtype).min, dtype=weights.dtype)
        weights = torch.where(causal, weights, mask_value) + mask
        out = torch.matmul(F.softmax(weights, dim=-1), value).permute(0, 2, 1, 3).contiguous()
        out = out.view(out.size()[:-2] + (self.hidden,))
        return self.c_proj(out), key, value

    def forward(self, x, past_key, past_value, mask):
        attn, key, value = self.attention(self.ln_1(x), past_key, past_value, mask)
        x = x + attn
        return x + self.mlp_proj(gelu_tanh(self.c_fc(self.ln_2(x)))), key, value


class Gpt2(nn.Module):
    def __init__(self, hidden, heads, layers):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(VOCAB, hidden), nn.Embedding(MAX_POSITIONS, hidden)
        nn.init.normal_(self.wte.weight, std=0.02)
        self.blocks = nn.ModuleList(Gpt2Block(hidden, heads) for _ in range(layers))
        self.ln_f = layer_norm(hidden, 1e-5)

    def forward(self, input_ids, attention_mask, *past):
        past_length = past[0].size(-2)
        positions = torch.arange(past_length, input_ids.size(-1) + past_length, dtype=torch.long)
        x = self.wte(input_ids) + self.wpe(positions.unsqueeze(0))
        mask = attention_mask.view(input_ids.size(0), -1)[:, None, None, :].to(torch.float32)
        mask = (1.0 - mask) * torch.finfo(torch.float32).min
        presents = []
        for i, block in enumerate(self.blocks):
            x, key, value = block(x, past[2 * i], past[2 * i + 1], mask)
            presents += [key, value]
        logits = torch.matmul(self.ln_f(x), self.wte.weight.t())
        return (logits, torch.argmax(logits[:, -1, :], dim=-1), *presents)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


class LlamaLayer(nn.Module):
    attention_blocks = 1

    def __init__(self, hidden, heads, kv_heads, intermediate):
        super().__init__()
        self.heads, self.kv_heads, self.head_size = heads, kv_heads, hidden // heads
        self.input_layernorm, self.post_attention_layernorm = RMSNorm(hidden), RMSNorm(hidden)
        self.q_proj = nn.Linear(hidden, hidden, bias=False)
        self.k_proj = nn.Linear(hidden, kv_heads * self.head_size, bias=False)
        self.v_proj = nn.Linear(hidden, kv_heads * self.head_size, bias=False)
        self.o_proj = nn.Linear(hidden, hidden, bias=False)
        self.gate_proj = nn.Linear(hidden, intermediate, bias=False)
        self.up_proj = nn.Linear(hidden, intermediate, bias=False)
        self.down_proj = nn.Linear(intermediate, hidden, bias=False)

    def repeat_kv(self, x):
        """HF's repeat_kv: expand + reshape (repeat_interleave exports wrongly in torch 1.13)."""
        batch, kv_heads, length, head_size = x.shape
        rep = self.heads // self.kv_heads
        x = x[:, :, None, :, :].expand(batch, kv_heads, rep, length, head_size)
        return x.reshape(batch, kv_heads * rep, length, head_size)

    def attention(self, x, cos, sin, mask, past_key, past_value):
        bsz, q_len, _ = x.size()
        q = self.q_proj(x).view(bsz, q_len, self.heads, self.head_size).transpose(1, 2)
        k = self.k_proj(x).view(bsz, q_len, self.kv_heads, self.head_size).transpose(1, 2)
        v = self.v_proj(x).view(bsz, q_len, self.kv_heads, self.head_size).transpose(1, 2)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        k, v = torch.cat([past_key, k], dim=2), torch.cat([past_value, v], dim=2)
        scores = torch.matmul(q, self.repeat_kv(k).transpose(2, 3)) / math.sqrt(self.head_size)
        probs = F.softmax(scores + mask, dim=-1, dtype=torch.float32)
        out = torch.matmul(probs, self.repeat_kv(v)).transpose(1, 2).contiguous()
        return self.o_proj(out.reshape(bsz, q_len, self.heads * self.head_size)), k, v

    def forward(self, x, cos, sin, mask, past_key, past_value):
        attn, k, v = self.attention(self.input_layernorm(x), cos, sin, mask, past_key, past_value)
        x = x + attn
        h = self.post_attention_layernorm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h)), k, v


class Llama(nn.Module):
    def __init__(self, hidden, heads, kv_heads, layers, intermediate):
        super().__init__()
        self.embed_tokens = nn.Embedding(VOCAB, hidden)
        self.layers = nn.ModuleList(
            LlamaLayer(hidden, heads, kv_heads, intermediate) for _ in range(layers))
        self.norm = RMSNorm(hidden)
        self.lm_head = nn.Linear(hidden, VOCAB, bias=False)
        head_size = hidden // heads
        inv_freq = 1.0 / (10000 ** (torch.arange(0, head_size, 2).float() / head_size))
        freqs = torch.einsum("i,j->ij", torch.arange(MAX_POSITIONS).float(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos()[None, None, :, :])
        self.register_buffer("sin_cached", emb.sin()[None, None, :, :])

    def causal_mask(self, attention_mask, bsz, tgt_len, past):
        """HF's _make_causal_mask + _expand_mask: a (tgt, past + tgt) min-filled matrix with zeros
        on and below the diagonal, plus the padding mask."""
        mask = torch.full((tgt_len, tgt_len), torch.finfo(torch.float32).min)
        cond = torch.arange(mask.size(-1))
        mask.masked_fill_(cond < (cond + 1).view(mask.size(-1), 1), 0)
        mask = torch.cat([torch.zeros(tgt_len, past, dtype=torch.float32), mask], dim=-1)
        mask = mask[None, None, :, :].expand(bsz, 1, tgt_len, tgt_len + past)
        padding = attention_mask[:, None, None, :].expand(bsz, 1, tgt_len, tgt_len + past)
        inverted = 1.0 - padding.to(torch.float32)
        padding = inverted.masked_fill(inverted.to(torch.bool), torch.finfo(torch.float32).min)
        return mask + padding

    def forward(self, input_ids, attention_mask, *past):
        bsz, seq = input_ids.shape
        past_length = past[0].shape[2]
        positions = torch.arange(past_length, seq + past_length, dtype=torch.long).unsqueeze(0)
        cos = self.cos_cached[:, :, :seq + past_length][0, 0][positions].unsqueeze(1)
        sin = self.sin_cached[:, :, :seq + past_length][0, 0][positions].unsqueeze(1)
        mask = self.causal_mask(attention_mask, bsz, seq, past_length)
        x = self.embed_tokens(input_ids)
        presents = []
        for i, layer in enumerate(self.layers):
            x, k, v = layer(x, cos, sin, mask, past[2 * i], past[2 * i + 1])
            presents += [k, v]
        return (self.lm_head(self.norm(x)), *presents)


class T5Attention(nn.Module):
    def __init__(self, hidden, heads, relative_bias, bidirectional, buckets=32, max_distance=128):
        super().__init__()
        self.heads, self.head_size = heads, hidden // heads
        self.q, self.k = nn.Linear(hidden, hidden, bias=False), nn.Linear(hidden, hidden, bias=False)
        self.v, self.o = nn.Linear(hidden, hidden, bias=False), nn.Linear(hidden, hidden, bias=False)
        self.bidirectional, self.buckets, self.max_distance = bidirectional, buckets, max_distance
        self.relative_attention_bias = nn.Embedding(buckets, heads) if relative_bias else None

    def bucket(self, relative_position):
        buckets, result = self.buckets, 0
        if self.bidirectional:
            buckets //= 2
            result += (relative_position > 0).to(torch.long) * buckets
            relative_position = torch.abs(relative_position)
        else:
            relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
        max_exact = buckets // 2
        is_small = relative_position < max_exact
        large = max_exact + (torch.log(relative_position.float() / max_exact)
                             / math.log(self.max_distance / max_exact) * (buckets - max_exact)).to(torch.long)
        large = torch.min(large, torch.full_like(large, buckets - 1))
        return result + torch.where(is_small, relative_position, large)

    def compute_bias(self, query_length, key_length):
        context = torch.arange(query_length, dtype=torch.long)[:, None]
        memory = torch.arange(key_length, dtype=torch.long)[None, :]
        values = self.relative_attention_bias(self.bucket(memory - context))
        return values.permute([2, 0, 1]).unsqueeze(0)

    def forward(self, x, mask, kv=None, position_bias=None):
        batch_size, seq_length = x.shape[:2]
        kv = x if kv is None else kv

        def shape(states):
            return states.view(batch_size, -1, self.heads, self.head_size).transpose(1, 2)

        q, k, v = shape(self.q(x)), shape(self.k(kv)), shape(self.v(kv))
        scores = torch.matmul(q, k.transpose(3, 2))
        if position_bias is None:
            position_bias = (self.compute_bias(seq_length, k.shape[2]) if self.relative_attention_bias
                             is not None else torch.zeros_like(scores[:1]))
            position_bias = position_bias + mask
        weights = F.softmax(scores.float() + position_bias, dim=-1).type_as(scores)
        out = torch.matmul(weights, v).transpose(1, 2).contiguous()
        out = out.view(batch_size, -1, self.heads * self.head_size)
        return self.o(out), position_bias


class T5Stack(nn.Module):
    def __init__(self, hidden, heads, layers, ff, decoder):
        super().__init__()
        self.decoder = decoder
        self.blocks = nn.ModuleList(nn.ModuleDict(dict(
            self_norm=RMSNorm(hidden), self_attn=T5Attention(hidden, heads, i == 0, not decoder),
            **(dict(cross_norm=RMSNorm(hidden), cross_attn=T5Attention(hidden, heads, False, False))
               if decoder else {}),
            ff_norm=RMSNorm(hidden), wi=nn.Linear(hidden, ff, bias=False),
            wo=nn.Linear(ff, hidden, bias=False)))
            for i in range(layers))
        self.final_norm = RMSNorm(hidden)

    def forward(self, x, mask, encoder_out=None, encoder_mask=None):
        bias, cross_bias = None, None
        for block in self.blocks:
            attn, bias = block["self_attn"](block["self_norm"](x), mask, position_bias=bias)
            x = x + attn
            if self.decoder:
                attn, cross_bias = block["cross_attn"](block["cross_norm"](x), encoder_mask, encoder_out,
                                                       cross_bias)
                x = x + attn
            x = x + block["wo"](F.relu(block["wi"](block["ff_norm"](x))))
        return self.final_norm(x)


class T5(nn.Module):
    def __init__(self, hidden, heads, layers, ff):
        super().__init__()
        self.hidden = hidden
        self.shared = nn.Embedding(VOCAB, hidden)
        self.encoder = T5Stack(hidden, heads, layers, ff, False)
        self.decoder = T5Stack(hidden, heads, layers, ff, True)

    def forward(self, input_ids, attention_mask, decoder_input_ids):
        encoder_mask = attention_mask[:, None, None, :].to(torch.float32)
        encoder_mask = (1.0 - encoder_mask) * torch.finfo(torch.float32).min
        encoder_out = self.encoder(self.shared(input_ids), encoder_mask)
        batch_size, seq_length = decoder_input_ids.shape
        seq_ids = torch.arange(seq_length)
        causal = seq_ids[None, None, :].repeat(batch_size, seq_length, 1) <= seq_ids[None, :, None]
        decoder_mask = (1.0 - causal[:, None, :, :].to(torch.float32)) * torch.finfo(torch.float32).min
        out = self.decoder(self.shared(decoder_input_ids), decoder_mask, encoder_out, encoder_mask)
        return torch.matmul(out * self.hidden ** -0.5, self.shared.weight.t()), encoder_out


def _cache_inputs(layers, kv_heads, head_size, left_padding):
    def make(rng, trace):
        b, s, p = (2, 6, 5) if trace else (3, 4, 7)
        inputs = {"input_ids": token_ids(rng, b, s),
                  "attention_mask": padding_mask(b, p + s, 2, left_padding)}
        for i in range(layers):
            for kind in ("key", "value"):
                past = rng.standard_normal((b, kv_heads, p, head_size))
                inputs[f"past_{kind}_{i}"] = past.astype(np.float32)
        return inputs
    return make


def _cache_axes(layers):
    axes = {"input_ids": {0: "batch", 1: "sequence"}, "attention_mask": {0: "batch", 1: "total_sequence"},
            "logits": {0: "batch", 1: "sequence"}}
    for i in range(layers):
        for kind in ("key", "value"):
            axes[f"past_{kind}_{i}"] = {0: "batch", 2: "past_sequence"}
            axes[f"present_{kind}_{i}"] = {0: "batch", 2: "total_sequence"}
    return axes


def _cache_names(layers, prefix):
    return [f"{prefix}_{kind}_{i}" for i in range(layers) for kind in ("key", "value")]


def specs():
    sizes = {"": dict(hidden=256, heads=8, layers=4), "_tiny": dict(hidden=64, heads=4, layers=2)}
    out = []
    for suffix, size in sizes.items():
        slices = ("ci", "full") if suffix else ("full",)
        hidden, heads, layers = size["hidden"], size["heads"], size["layers"]
        head_size = hidden // heads
        axes = _cache_axes(layers)
        out.append(Spec(
            f"gpt2{suffix}", "gpt2", lambda h=hidden, n=heads, l=layers: Gpt2(h, n, l),
            _cache_inputs(layers, heads, head_size, True),
            ["logits", "next_token"] + _cache_names(layers, "present"),
            {**axes, "next_token": {0: "batch"}}, slices,
            decisions=[{"kind": "argmax", "output": "next_token", "scores": "logits"}]))
        kv_heads = heads // 4
        out.append(Spec(
            f"llama{suffix}", "llama",
            lambda h=hidden, n=heads, kv=kv_heads, l=layers: Llama(h, n, kv, l, h * 8 // 3),
            _cache_inputs(layers, kv_heads, head_size, True), ["logits"] + _cache_names(layers, "present"),
            axes, slices))

        def t5_inputs(rng, trace):
            b, s, t = (2, 12, 7) if trace else (3, 9, 5)
            return {"input_ids": token_ids(rng, b, s), "attention_mask": padding_mask(b, s),
                    "decoder_input_ids": token_ids(rng, b, t)}
        out.append(Spec(
            f"t5{suffix}", "t5", lambda h=hidden, n=heads, l=layers: T5(h, n, l, 4 * h), t5_inputs,
            ["logits", "encoder_last_hidden_state"],
            {"input_ids": {0: "batch", 1: "sequence"}, "attention_mask": {0: "batch", 1: "sequence"},
             "decoder_input_ids": {0: "batch", 1: "decoder_sequence"},
             "logits": {0: "batch", 1: "decoder_sequence"},
             "encoder_last_hidden_state": {0: "batch", 1: "sequence"}},
            slices))
    return out
