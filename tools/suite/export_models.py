#!/usr/bin/python3
"""Exports the torch-made models of the benchmark/correctness suite with random weights.

resnet50, mobilenet_v2, squeezenet1_1 (torchvision, opset 14, dynamic batch, BatchNormalization
kept), bert_base: a
12-layer, hidden 768, 12-head BERT encoder written the way Hugging Face's BertModel is, so that it
exports the same graph (decomposed LayerNorm, erf GELU, MatMul+Add, additive attention mask), and
two_branch: two independent conv stacks joined at the end, the shape parallel execution serves.
Usage: export_models.py OUT_DIR [model ...]
"""
import inspect
import math
import os
import sys

import torch
import torch.nn as nn
import torchvision

OPSET = 14


def export(model, args, path, **kwargs):
    """torch.onnx.export with the TorchScript exporter, which newer torch (2.9+) no longer
    defaults to: the suite's graphs are the ones it makes."""
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        kwargs["dynamo"] = False
    torch.onnx.export(model, args, path, **kwargs)


class LayerNorm(nn.Module):
    """LayerNorm written out (as Hugging Face exports at opset < 17): ReduceMean/Sub/Pow/Sqrt/Div."""

    def __init__(self, hidden, eps=1e-12):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden) + 0.1 * torch.randn(hidden))
        self.bias = nn.Parameter(0.1 * torch.randn(hidden))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        variance = (x - mean).pow(2).mean(-1, keepdim=True)
        return self.weight * ((x - mean) / torch.sqrt(variance + self.eps)) + self.bias


def gelu(x):
    return x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))


class SelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.head_size = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.output = nn.Linear(hidden, hidden)
        self.norm = LayerNorm(hidden)

    def split_heads(self, x):
        shape = x.size()[:-1] + (self.heads, self.head_size)
        return x.view(shape).permute(0, 2, 1, 3)

    def forward(self, hidden_states, mask):
        q = self.split_heads(self.query(hidden_states))
        k = self.split_heads(self.key(hidden_states))
        v = self.split_heads(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size)
        probs = nn.functional.softmax(scores + mask, dim=-1)
        context = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        context = context.view(context.size()[:-2] + (self.heads * self.head_size,))
        return self.norm(self.output(context) + hidden_states)


class Layer(nn.Module):
    def __init__(self, hidden, heads, intermediate):
        super().__init__()
        self.attention = SelfAttention(hidden, heads)
        self.intermediate = nn.Linear(hidden, intermediate)
        self.output = nn.Linear(intermediate, hidden)
        self.norm = LayerNorm(hidden)

    def forward(self, hidden_states, mask):
        attention = self.attention(hidden_states, mask)
        return self.norm(self.output(gelu(self.intermediate(attention))) + attention)


class Bert(nn.Module):
    def __init__(self, vocab=30522, hidden=768, layers=12, heads=12, intermediate=3072,
                 max_positions=512, type_vocab=2):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden)
        self.position = nn.Embedding(max_positions, hidden)
        self.token_type = nn.Embedding(type_vocab, hidden)
        self.norm = LayerNorm(hidden)
        self.layers = nn.ModuleList([Layer(hidden, heads, intermediate) for _ in range(layers)])
        self.pooler = nn.Linear(hidden, hidden)
        self.register_buffer("position_ids", torch.arange(max_positions).expand((1, -1)))

    def forward(self, input_ids, attention_mask, token_type_ids):
        seq_length = input_ids.size(1)
        positions = self.position_ids[:, :seq_length]
        hidden = self.word(input_ids) + self.position(positions) + self.token_type(token_type_ids)
        hidden = self.norm(hidden)
        mask = attention_mask[:, None, None, :].to(hidden.dtype)
        mask = (1.0 - mask) * torch.finfo(hidden.dtype).min
        for layer in self.layers:
            hidden = layer(hidden, mask)
        pooled = torch.tanh(self.pooler(hidden[:, 0]))
        return hidden, pooled


class TwoBranches(nn.Module):
    def __init__(self, channels=64, depth=4):
        super().__init__()

        def stack():
            layers = []
            for _ in range(depth):
                layers += [nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU()]
            return nn.Sequential(*layers)

        self.left = stack()
        self.right = stack()

    def forward(self, x):
        return torch.cat([self.left(x), self.right(x)], 1)


def export_two_branch(out_dir):
    export(TwoBranches().eval(), torch.randn(1, 64, 56, 56),
           os.path.join(out_dir, "two_branch.onnx"), opset_version=OPSET,
           input_names=["input"], output_names=["output"])


def export_vision(name, out_dir):
    model = getattr(torchvision.models, name)(weights=None).eval()
    dummy = torch.randn(1, 3, 224, 224)
    # PRESERVE keeps BatchNormalization nodes (EVAL would fold them into the convs), so the
    # models look like the ones users bring and the optimizer's Conv+BatchNormalization fusion
    # is exercised; the model is in eval mode, so they export in inference form.
    export(model, dummy, os.path.join(out_dir, name + ".onnx"), opset_version=OPSET,
           input_names=["input"], output_names=["output"],
           training=torch.onnx.TrainingMode.PRESERVE,
           dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}})


def export_bert(out_dir):
    model = Bert().eval()
    ids = torch.randint(0, 30522, (1, 128))
    mask = torch.ones(1, 128, dtype=torch.int64)
    types = torch.zeros(1, 128, dtype=torch.int64)
    export(model, (ids, mask, types), os.path.join(out_dir, "bert_base.onnx"),
           opset_version=OPSET,
           input_names=["input_ids", "attention_mask", "token_type_ids"],
           output_names=["last_hidden_state", "pooler_output"],
           dynamic_axes={name: {0: "batch", 1: "sequence"}
                         for name in ["input_ids", "attention_mask", "token_type_ids"]})


def main():
    out_dir = sys.argv[1]
    wanted = sys.argv[2:] or ["resnet50", "mobilenet_v2", "squeezenet1_1", "bert_base",
                   "two_branch"]
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(0)
    for name in wanted:
        path = os.path.join(out_dir, name + ".onnx")
        if os.path.exists(path):
            continue
        print("exporting", name, flush=True)
        if name == "bert_base":
            export_bert(out_dir)
        elif name == "two_branch":
            export_two_branch(out_dir)
        else:
            export_vision(name, out_dir)


if __name__ == "__main__":
    main()
