"""Encoder families written the way Hugging Face writes them, so that they export the same graphs:
BERT in three shape styles, DistilBERT (masked_fill -> Where), RoBERTa (position ids from the
input ids by CumSum), a Whisper-style audio encoder (Conv1d + GELU + sinusoidal positions) and
torch's own nn.TransformerEncoderLayer with a causal attn_mask beside the key padding mask."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from .common import VOCAB, Spec, layer_norm, padding_mask, sinusoids, token_ids

MAX_POSITIONS = 512


class BertSelfAttention(nn.Module):
    """style 'self': head sizes from the tensor's own shape (x.size()[:-1] + (heads, dim));
    'input': from input_ids.shape (batch, seq passed down); 'const': view(-1, SEQ, heads, dim)
    with a fixed sequence length, so every Reshape target is a constant."""

    def __init__(self, hidden, heads, style, seq):
        super().__init__()
        self.heads, self.head_size, self.style, self.seq = heads, hidden // heads, style, seq
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)

    def split(self, x, shape):
        if self.style == "self":
            x = x.view(x.size()[:-1] + (self.heads, self.head_size))
        elif self.style == "input":
            x = x.view(shape[0], shape[1], self.heads, self.head_size)
        else:
            x = x.view(-1, self.seq, self.heads, self.head_size)
        return x.permute(0, 2, 1, 3)

    def merge(self, x, shape):
        x = x.permute(0, 2, 1, 3).contiguous()
        if self.style == "self":
            return x.view(x.size()[:-2] + (self.heads * self.head_size,))
        if self.style == "input":
            return x.view(shape[0], shape[1], self.heads * self.head_size)
        return x.view(-1, self.seq, self.heads * self.head_size)

    def forward(self, hidden_states, mask, shape):
        q = self.split(self.query(hidden_states), shape)
        k = self.split(self.key(hidden_states), shape)
        v = self.split(self.value(hidden_states), shape)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size)
        probs = F.softmax(scores + mask, dim=-1)
        return self.merge(torch.matmul(probs, v), shape)


class BertLayer(nn.Module):
    def __init__(self, hidden, heads, intermediate, style, seq):
        super().__init__()
        self.attention = BertSelfAttention(hidden, heads, style, seq)
        self.attention_output = nn.Linear(hidden, hidden)
        self.attention_norm = layer_norm(hidden)
        self.intermediate = nn.Linear(hidden, intermediate)
        self.output = nn.Linear(intermediate, hidden)
        self.output_norm = layer_norm(hidden)

    def forward(self, x, mask, shape):
        x = self.attention_norm(self.attention_output(self.attention(x, mask, shape)) + x)
        return self.output_norm(self.output(F.gelu(self.intermediate(x))) + x)


class Bert(nn.Module):
    """BertModel: word + position (buffer sliced to the sequence) + token type embeddings,
    post-norm layers, tanh pooler. `roberta` makes position ids from the input ids (CumSum over
    non-padding tokens, padding id 1) and token types from a zero buffer, as RobertaModel does."""

    def __init__(self, hidden, heads, layers, intermediate, style="self", seq=0, roberta=False):
        super().__init__()
        self.style, self.roberta = style, roberta
        self.word = nn.Embedding(VOCAB, hidden)
        self.position = nn.Embedding(MAX_POSITIONS, hidden)
        self.token_type = nn.Embedding(2, hidden)
        self.norm = layer_norm(hidden)
        self.register_buffer("position_ids", torch.arange(MAX_POSITIONS).expand((1, -1)))
        self.register_buffer("token_type_ids", torch.zeros((1, MAX_POSITIONS), dtype=torch.long))
        self.layers = nn.ModuleList(
            BertLayer(hidden, heads, intermediate, style, seq) for _ in range(layers))
        self.pooler = nn.Linear(hidden, hidden)

    def extended_mask(self, attention_mask):
        mask = attention_mask[:, None, None, :].to(torch.float32)
        if self.style == "self" or self.roberta:
            return (1.0 - mask) * torch.finfo(torch.float32).min
        return (1.0 - mask) * -10000.0

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        shape = input_ids.shape
        if self.roberta:
            not_padding = input_ids.ne(1).int()
            positions = (torch.cumsum(not_padding, dim=1).type_as(not_padding) * not_padding).long() + 1
            token_type_ids = self.token_type_ids[:, :shape[1]].expand(shape[0], shape[1])
        else:
            positions = self.position_ids[:, :shape[1]]
        x = self.word(input_ids) + self.position(positions) + self.token_type(token_type_ids)
        x = self.norm(x)
        mask = self.extended_mask(attention_mask)
        for layer in self.layers:
            x = layer(x, mask, shape)
        return x, torch.tanh(self.pooler(x[:, 0]))


class DistilBert(nn.Module):
    """DistilBertModel: query scaled before the product, mask applied with masked_fill (Where)
    from `mask == 0` expanded to the scores, view(bs, -1, heads, dim)."""

    def __init__(self, hidden, heads, layers, intermediate):
        super().__init__()
        self.heads, self.head_size = heads, hidden // heads
        self.word = nn.Embedding(VOCAB, hidden)
        self.position = nn.Embedding(MAX_POSITIONS, hidden)
        self.norm = layer_norm(hidden)
        self.layers = nn.ModuleList(nn.ModuleDict(dict(
            q_lin=nn.Linear(hidden, hidden), k_lin=nn.Linear(hidden, hidden),
            v_lin=nn.Linear(hidden, hidden), out_lin=nn.Linear(hidden, hidden),
            sa_layer_norm=layer_norm(hidden), lin1=nn.Linear(hidden, intermediate),
            lin2=nn.Linear(intermediate, hidden), output_layer_norm=layer_norm(hidden)))
            for _ in range(layers))

    def attention(self, layer, x, mask):
        bs, q_length, dim = x.size()
        k_length = x.size(1)

        def shape(t):
            return t.view(bs, -1, self.heads, self.head_size).transpose(1, 2)

        q = shape(layer["q_lin"](x)) / math.sqrt(self.head_size)
        k, v = shape(layer["k_lin"](x)), shape(layer["v_lin"](x))
        scores = torch.matmul(q, k.transpose(2, 3))
        mask = (mask == 0).view(bs, 1, 1, k_length).expand_as(scores)
        scores = scores.masked_fill(mask, torch.tensor(torch.finfo(scores.dtype).min))
        context = torch.matmul(F.softmax(scores, dim=-1), v)
        context = context.transpose(1, 2).contiguous().view(bs, -1, self.heads * self.head_size)
        return layer["out_lin"](context)

    def forward(self, input_ids, attention_mask):
        positions = torch.arange(input_ids.size(1), dtype=torch.long).unsqueeze(0).expand_as(input_ids)
        x = self.norm(self.word(input_ids) + self.position(positions))
        for layer in self.layers:
            x = layer["sa_layer_norm"](self.attention(layer, x, attention_mask) + x)
            x = layer["output_layer_norm"](layer["lin2"](F.gelu(layer["lin1"](x))) + x)
        return x


class WhisperEncoder(nn.Module):
    """WhisperEncoder: two Conv1d + GELU (the second with stride 2), sinusoidal positions sliced
    to the frame count, pre-norm layers whose attention scales q, reshapes to (bsz*heads, -1, dim)
    and uses bmm, k_proj without bias."""

    def __init__(self, mels, hidden, heads, layers, intermediate):
        super().__init__()
        self.heads, self.head_size = heads, hidden // heads
        self.conv1 = nn.Conv1d(mels, hidden, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(hidden, hidden, kernel_size=3, stride=2, padding=1)
        self.register_buffer("positions", sinusoids(1500, hidden))
        self.layers = nn.ModuleList(nn.ModuleDict(dict(
            self_attn_layer_norm=layer_norm(hidden, 1e-5), q_proj=nn.Linear(hidden, hidden),
            k_proj=nn.Linear(hidden, hidden, bias=False), v_proj=nn.Linear(hidden, hidden),
            out_proj=nn.Linear(hidden, hidden), final_layer_norm=layer_norm(hidden, 1e-5),
            fc1=nn.Linear(hidden, intermediate), fc2=nn.Linear(intermediate, hidden)))
            for _ in range(layers))
        self.layer_norm = layer_norm(hidden, 1e-5)

    def attention(self, layer, x):
        bsz, tgt_len, embed_dim = x.size()

        def shape(t):
            return t.view(bsz, -1, self.heads, self.head_size).transpose(1, 2).contiguous()

        q = shape(layer["q_proj"](x) * self.head_size ** -0.5)
        k, v = shape(layer["k_proj"](x)), shape(layer["v_proj"](x))
        proj_shape = (bsz * self.heads, -1, self.head_size)
        q, k, v = q.view(*proj_shape), k.reshape(*proj_shape), v.reshape(*proj_shape)
        weights = F.softmax(torch.bmm(q, k.transpose(1, 2)), dim=-1)
        out = torch.bmm(weights, v).view(bsz, self.heads, tgt_len, self.head_size).transpose(1, 2)
        return layer["out_proj"](out.reshape(bsz, tgt_len, embed_dim))

    def forward(self, input_features):
        x = F.gelu(self.conv1(input_features))
        x = F.gelu(self.conv2(x)).permute(0, 2, 1)
        x = x + self.positions[:x.size(1)]
        for layer in self.layers:
            x = x + self.attention(layer, layer["self_attn_layer_norm"](x))
            x = x + layer["fc2"](F.gelu(layer["fc1"](layer["final_layer_norm"](x))))
        return self.layer_norm(x)


class TorchCausalEncoder(nn.Module):
    """nn.TransformerEncoderLayer (batch_first) layers over token embeddings, each given a causal
    src_mask and src_key_padding_mask = attention_mask == 0: nn.MultiheadAttention fills the
    padding into the causal mask. Layers in a ModuleList keep nn.TransformerEncoder's nested
    tensor path out of the export."""

    def __init__(self, hidden, heads, layers, intermediate):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, hidden)
        self.layers = nn.ModuleList([
            nn.TransformerEncoderLayer(hidden, heads, intermediate, dropout=0.0, batch_first=True)
            for _ in range(layers)])

    def forward(self, input_ids, attention_mask):
        x = self.embed(input_ids)
        length = input_ids.shape[1]
        causal = torch.triu(torch.full((length, length), float("-inf")), 1)
        padded = attention_mask == 0
        for layer in self.layers:
            x = layer(x, src_mask=causal, src_key_padding_mask=padded)
        return x


class TorchSeq2Seq(nn.Module):
    """nn.TransformerEncoderLayer and nn.TransformerDecoderLayer stacks (batch_first) sharing
    token embeddings, as nn.Transformer arranges them: the encoder given
    src_key_padding_mask = attention_mask == 0, the decoder a causal tgt_mask, and its
    cross-attention over the encoder's memory the same padding mask."""

    def __init__(self, hidden, heads, layers, intermediate):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, hidden)
        self.encoder = nn.ModuleList([
            nn.TransformerEncoderLayer(hidden, heads, intermediate, dropout=0.0, batch_first=True)
            for _ in range(layers)])
        self.decoder = nn.ModuleList([
            nn.TransformerDecoderLayer(hidden, heads, intermediate, dropout=0.0, batch_first=True)
            for _ in range(layers)])

    def forward(self, input_ids, attention_mask, decoder_input_ids):
        padded = attention_mask == 0
        memory = self.embed(input_ids)
        for layer in self.encoder:
            memory = layer(memory, src_key_padding_mask=padded)
        length = decoder_input_ids.shape[1]
        causal = torch.triu(torch.full((length, length), float("-inf")), 1)
        x = self.embed(decoder_input_ids)
        for layer in self.decoder:
            x = layer(x, memory, tgt_mask=causal, memory_key_padding_mask=padded)
        return x


def _seq2seq_inputs(batch, seq):
    """Encoder tokens with a padding mask, and decoder tokens of another length."""
    def make(rng, trace):
        inputs = _text_inputs(batch, seq, token_types=False)(rng, trace)
        b, s = inputs["input_ids"].shape
        inputs["decoder_input_ids"] = token_ids(rng, b, s // 2 + (0 if trace else 3))
        return inputs
    return make


def _text_inputs(batch, seq, token_types=True, roberta=False):
    def make(rng, trace):
        b, s = batch if trace else batch + 1, seq[0] if trace else seq[1]
        ids = token_ids(rng, b, s)
        mask = padding_mask(b, s)
        if roberta:
            ids[mask == 0] = 1
        inputs = {"input_ids": ids, "attention_mask": mask}
        if token_types:
            types = np.zeros((b, s), dtype=np.int64)
            types[:, s // 2:] = 1
            inputs["token_type_ids"] = types
        return inputs
    return make


def _axes(names, seq=True):
    return {name: ({0: "batch", 1: "sequence"} if seq else {0: "batch"}) for name in names}


def specs():
    sizes = {"": dict(hidden=256, heads=4, layers=4, intermediate=1024, seq=(64, 48)),
             "_tiny": dict(hidden=64, heads=4, layers=2, intermediate=128, seq=(16, 12))}
    out = []
    for suffix, size in sizes.items():
        slices = ("ci", "full") if suffix else ("full",)
        dims = dict(hidden=size["hidden"], heads=size["heads"], layers=size["layers"],
                    intermediate=size["intermediate"])
        seq = size["seq"]
        text = ["input_ids", "attention_mask", "token_type_ids"]
        for style in ("self", "input", "const"):
            const = style == "const"
            out.append(Spec(
                f"bert_{style}{suffix}", "bert",
                lambda style=style, dims=dims, seq=seq: Bert(**dims, style=style, seq=seq[0]),
                _text_inputs(2, (seq[0], seq[0]) if const else seq), ["last_hidden_state", "pooler_output"],
                {**_axes(text, not const), "last_hidden_state": {0: "batch"}, "pooler_output": {0: "batch"}}
                if const else {**_axes(text), "last_hidden_state": {0: "batch", 1: "sequence"},
                               "pooler_output": {0: "batch"}}, slices))
        out.append(Spec(
            f"roberta{suffix}", "roberta", lambda dims=dims: Bert(**dims, roberta=True),
            _text_inputs(2, seq, token_types=False, roberta=True), ["last_hidden_state", "pooler_output"],
            {**_axes(text[:2]), "last_hidden_state": {0: "batch", 1: "sequence"},
             "pooler_output": {0: "batch"}},
            slices))
        out.append(Spec(
            f"distilbert{suffix}", "distilbert", lambda dims=dims: DistilBert(**dims),
            _text_inputs(2, seq, token_types=False), ["last_hidden_state"],
            {**_axes(text[:2]), "last_hidden_state": {0: "batch", 1: "sequence"}}, slices))
        frames = (seq[0] * 4, seq[1] * 4)
        mels = 80 if not suffix else 16
        out.append(Spec(
            f"whisper_encoder{suffix}", "whisper", lambda dims=dims, mels=mels: WhisperEncoder(mels, **dims),
            lambda rng, trace, mels=mels, frames=frames: {"input_features": rng.standard_normal(
                (2 if trace else 3, mels, frames[0] if trace else frames[1])).astype(np.float32)},
            ["last_hidden_state"],
            {"input_features": {0: "batch", 2: "frames"}, "last_hidden_state": {0: "batch", 1: "positions"}},
            slices))
        out.append(Spec(
            f"torch_causal_encoder{suffix}", "torch_transformer",
            lambda dims=dims, suffix=suffix: TorchCausalEncoder(
                **{**dims, "layers": 1 if suffix else dims["layers"]}),
            _text_inputs(2, seq, token_types=False), ["last_hidden_state"],
            {**_axes(text[:2]), "last_hidden_state": {0: "batch", 1: "sequence"}}, slices))
        out.append(Spec(
            f"torch_seq2seq{suffix}", "torch_transformer",
            lambda dims=dims, suffix=suffix: TorchSeq2Seq(
                **{**dims, "layers": 1 if suffix else dims["layers"] // 2}),
            _seq2seq_inputs(2, seq), ["last_hidden_state"],
            {**_axes(text[:2]), "decoder_input_ids": {0: "batch", 1: "decoder_sequence"},
             "last_hidden_state": {0: "batch", 1: "decoder_sequence"}}, slices))
    return out
