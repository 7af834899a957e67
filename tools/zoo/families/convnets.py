"""Convolutional families written in torch: a diffusion-style UNet (time embedding, GroupNorm +
SiLU resnet blocks, spatial self-attention, stride-2 downsampling, nearest upsampling and skip
concatenation) and a YOLOv8-style detector (Conv-BN-SiLU, C2f splits, SPPF max pools, FPN
upsample + concat, DFL box decoding against anchors made from the feature maps' shapes)."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from .common import Spec, images


class ResnetBlock(nn.Module):
    def __init__(self, cin, cout, temb, groups):
        super().__init__()
        self.norm1, self.conv1 = nn.GroupNorm(groups, cin), nn.Conv2d(cin, cout, 3, padding=1)
        self.time_emb_proj = nn.Linear(temb, cout)
        self.norm2, self.conv2 = nn.GroupNorm(groups, cout), nn.Conv2d(cout, cout, 3, padding=1)
        self.shortcut = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.time_emb_proj(F.silu(temb))[:, :, None, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return self.shortcut(x) + h


class SpatialAttention(nn.Module):
    """diffusers' Attention over the H*W positions of a GroupNorm-ed feature map."""

    def __init__(self, channels, heads, groups):
        super().__init__()
        self.heads, self.head_size = heads, channels // heads
        self.group_norm = nn.GroupNorm(groups, channels)
        self.to_q, self.to_k = nn.Linear(channels, channels), nn.Linear(channels, channels)
        self.to_v, self.to_out = nn.Linear(channels, channels), nn.Linear(channels, channels)

    def forward(self, x):
        batch, channel, height, width = x.shape
        h = self.group_norm(x).view(batch, channel, height * width).transpose(1, 2)

        def heads(t):
            return t.reshape(batch, -1, self.heads, self.head_size).transpose(1, 2)

        q, k, v = heads(self.to_q(h)), heads(self.to_k(h)), heads(self.to_v(h))
        probs = F.softmax(torch.matmul(q, k.transpose(-1, -2)) * self.head_size ** -0.5, dim=-1)
        out = torch.matmul(probs, v).transpose(1, 2).reshape(batch, -1, channel)
        out = self.to_out(out).transpose(-1, -2).reshape(batch, channel, height, width)
        return out + x


class UNet(nn.Module):
    def __init__(self, channels=(32, 64, 128), in_channels=4, groups=8, heads=4):
        super().__init__()
        self.base = channels[0]
        temb = 4 * channels[0]
        self.time_embedding = nn.Sequential(nn.Linear(channels[0], temb), nn.SiLU(), nn.Linear(temb, temb))
        self.conv_in = nn.Conv2d(in_channels, channels[0], 3, padding=1)
        self.down, self.downsample = nn.ModuleList(), nn.ModuleList()
        skips, c = [channels[0]], channels[0]
        for i, cout in enumerate(channels):
            self.down.append(ResnetBlock(c, cout, temb, groups))
            c = cout
            skips.append(c)
            if i < len(channels) - 1:
                self.downsample.append(nn.Conv2d(c, c, 3, stride=2, padding=1))
                skips.append(c)
        self.mid_block1 = ResnetBlock(c, c, temb, groups)
        self.mid_attention = SpatialAttention(c, heads, groups)
        self.mid_block2 = ResnetBlock(c, c, temb, groups)
        self.up, self.up_attention, self.upsample = nn.ModuleList(), nn.ModuleList(), nn.ModuleList()
        for i, cout in enumerate(reversed(channels)):
            blocks = nn.ModuleList()
            for _ in range(2):
                blocks.append(ResnetBlock(c + skips.pop(), cout, temb, groups))
                c = cout
            self.up.append(blocks)
            self.up_attention.append(SpatialAttention(c, heads, groups) if i == 0 else nn.Identity())
            if i < len(channels) - 1:
                self.upsample.append(nn.Conv2d(c, c, 3, padding=1))
        self.norm_out, self.conv_out = nn.GroupNorm(groups, c), nn.Conv2d(c, in_channels, 3, padding=1)

    def timestep_embedding(self, timestep):
        half = self.base // 2
        exponent = -math.log(10000) * torch.arange(half, dtype=torch.float32) / half
        emb = timestep[:, None].float() * torch.exp(exponent)[None, :]
        return torch.cat([torch.cos(emb), torch.sin(emb)], dim=-1)

    def forward(self, sample, timestep):
        temb = self.time_embedding(self.timestep_embedding(timestep))
        x = self.conv_in(sample)
        skips = [x]
        for i, block in enumerate(self.down):
            x = block(x, temb)
            skips.append(x)
            if i < len(self.downsample):
                x = self.downsample[i](x)
                skips.append(x)
        x = self.mid_block2(self.mid_attention(self.mid_block1(x, temb)), temb)
        for i, blocks in enumerate(self.up):
            for block in blocks:
                x = block(torch.cat([x, skips.pop()], dim=1), temb)
            x = self.up_attention[i](x)
            if i < len(self.upsample):
                x = self.upsample[i](F.interpolate(x, scale_factor=2.0, mode="nearest"))
        return self.conv_out(F.silu(self.norm_out(x)))


class ConvBnSiLU(nn.Module):
    def __init__(self, cin, cout, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        nn.init.uniform_(self.bn.weight, 0.5, 1.5)
        nn.init.normal_(self.bn.bias, std=0.1)
        nn.init.normal_(self.bn.running_mean, std=0.1)
        nn.init.uniform_(self.bn.running_var, 0.5, 1.5)

    def forward(self, x):
        return F.silu(self.bn(self.conv(x)))


class C2f(nn.Module):
    def __init__(self, cin, cout, n=1, shortcut=True):
        super().__init__()
        self.c = cout // 2
        self.cv1, self.cv2 = ConvBnSiLU(cin, 2 * self.c), ConvBnSiLU((2 + n) * self.c, cout)
        self.m = nn.ModuleList(
            nn.Sequential(ConvBnSiLU(self.c, self.c, 3), ConvBnSiLU(self.c, self.c, 3)) for _ in range(n))
        self.shortcut = shortcut

    def forward(self, x):
        y = list(self.cv1(x).chunk(2, 1))
        for m in self.m:
            y.append(y[-1] + m(y[-1]) if self.shortcut else m(y[-1]))
        return self.cv2(torch.cat(y, 1))


class SPPF(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.cv1, self.cv2 = ConvBnSiLU(cin, cin // 2), ConvBnSiLU(cin * 2, cout)
        self.m = nn.MaxPool2d(kernel_size=5, stride=1, padding=2)

    def forward(self, x):
        x = self.cv1(x)
        y1 = self.m(x)
        y2 = self.m(y1)
        return self.cv2(torch.cat((x, y1, y2, self.m(y2)), 1))


class Yolo(nn.Module):
    def __init__(self, width=16, classes=8, reg_max=16):
        super().__init__()
        w = [width, 2 * width, 4 * width, 8 * width]
        self.classes, self.reg_max = classes, reg_max
        self.stem = nn.Sequential(ConvBnSiLU(3, w[0], 3, 2), ConvBnSiLU(w[0], w[1], 3, 2), C2f(w[1], w[1]))
        self.p3 = nn.Sequential(ConvBnSiLU(w[1], w[2], 3, 2), C2f(w[2], w[2], 2))
        self.p4 = nn.Sequential(ConvBnSiLU(w[2], w[3], 3, 2), C2f(w[3], w[3], 2))
        self.p5 = nn.Sequential(ConvBnSiLU(w[3], w[3], 3, 2), C2f(w[3], w[3]), SPPF(w[3], w[3]))
        self.top_down4 = C2f(2 * w[3], w[3], shortcut=False)
        self.top_down3 = C2f(w[3] + w[2], w[2], shortcut=False)
        self.down3, self.bottom_up4 = ConvBnSiLU(w[2], w[2], 3, 2), C2f(w[2] + w[3], w[3], shortcut=False)
        self.down4, self.bottom_up5 = ConvBnSiLU(w[3], w[3], 3, 2), C2f(2 * w[3], w[3], shortcut=False)
        def head(c, out):
            return nn.Sequential(ConvBnSiLU(c, 64, 3), ConvBnSiLU(64, 64, 3), nn.Conv2d(64, out, 1))
        self.box = nn.ModuleList(head(c, 4 * reg_max) for c in (w[2], w[3], w[3]))
        self.cls = nn.ModuleList(head(c, classes) for c in (w[2], w[3], w[3]))
        self.dfl = nn.Conv2d(reg_max, 1, 1, bias=False).requires_grad_(False)
        self.dfl.weight.data[:] = torch.arange(reg_max, dtype=torch.float32).view(1, reg_max, 1, 1)

    def anchors(self, features, strides):
        points, stride_tensor = [], []
        for feature, stride in zip(features, strides):
            _, _, h, w = feature.shape
            sx = torch.arange(end=w, dtype=torch.float32) + 0.5
            sy = torch.arange(end=h, dtype=torch.float32) + 0.5
            sy, sx = torch.meshgrid(sy, sx, indexing="ij")
            points.append(torch.stack((sx, sy), -1).view(-1, 2))
            stride_tensor.append(torch.full((h * w, 1), stride, dtype=torch.float32))
        return torch.cat(points).transpose(0, 1), torch.cat(stride_tensor).transpose(0, 1)

    def forward(self, x):
        p3 = self.p3(self.stem(x))
        p4 = self.p4(p3)
        p5 = self.p5(p4)
        t4 = self.top_down4(torch.cat([F.interpolate(p5, scale_factor=2.0, mode="nearest"), p4], 1))
        n3 = self.top_down3(torch.cat([F.interpolate(t4, scale_factor=2.0, mode="nearest"), p3], 1))
        n4 = self.bottom_up4(torch.cat([self.down3(n3), t4], 1))
        n5 = self.bottom_up5(torch.cat([self.down4(n4), p5], 1))
        features = [n3, n4, n5]
        batch = x.shape[0]
        out = torch.cat([torch.cat((box(f), cls(f)), 1).view(batch, 4 * self.reg_max + self.classes, -1)
                         for f, box, cls in zip(features, self.box, self.cls)], 2)
        box, cls = out.split((4 * self.reg_max, self.classes), 1)
        b, _, a = box.shape
        dist = self.dfl(box.view(b, 4, self.reg_max, a).transpose(2, 1).softmax(1)).view(b, 4, a)
        anchor_points, strides = self.anchors(features, (8, 16, 32))
        lt, rb = dist.chunk(2, 1)
        x1y1, x2y2 = anchor_points.unsqueeze(0) - lt, anchor_points.unsqueeze(0) + rb
        boxes = torch.cat(((x1y1 + x2y2) / 2, x2y2 - x1y1), 1) * strides
        return torch.cat((boxes, cls.sigmoid()), 1)


def specs():
    def unet_inputs(size, channels):
        def make(rng, trace):
            b, s = (1, size) if trace else (2, size + size // 2)
            return {"sample": images(rng, b, channels, s, s),
                    "timestep": rng.uniform(0, 1000, size=(b,)).astype(np.float32)}
        return make

    def yolo_inputs(size):
        def make(rng, trace):
            b, s = (1, size) if trace else (2, size + 32)
            return {"images": rng.uniform(0, 1, size=(b, 3, s, s)).astype(np.float32)}
        return make

    image_axes = {0: "batch", 2: "height", 3: "width"}
    return [
        Spec("unet", "unet", lambda: UNet((64, 128, 256), groups=32, heads=8), unet_inputs(32, 4),
             ["noise"], {"sample": image_axes, "timestep": {0: "batch"}, "noise": image_axes}),
        Spec("unet_tiny", "unet", lambda: UNet((16, 32), groups=4, heads=2), unet_inputs(16, 4),
             ["noise"], {"sample": image_axes, "timestep": {0: "batch"}, "noise": image_axes},
             ("ci", "full")),
        Spec("yolo", "yolo", lambda: Yolo(16, 80), yolo_inputs(320), ["predictions"],
             {"images": image_axes, "predictions": {0: "batch", 2: "anchors"}}),
        Spec("yolo_tiny", "yolo", lambda: Yolo(8, 4, 8), yolo_inputs(64), ["predictions"],
             {"images": image_axes, "predictions": {0: "batch", 2: "anchors"}}, ("ci", "full")),
    ]
