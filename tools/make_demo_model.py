#!/usr/bin/python3
"""Makes the small demo model committed under test/data/demo: a CIFAR-sized residual CNN
(Conv, BatchNormalization, Relu, MaxPool, Add, GlobalAveragePool, Flatten, Gemm, Softmax) with
seeded random weights, and a sample input. The expected output comes from onnxruntime-node
(tools/suite/ort_reference.js), not from this engine.
Usage: make_demo_model.py OUT_DIR
"""
import os
import sys

import numpy as np
import torch
import torch.nn as nn


class TinyResNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16),
                                  nn.ReLU(), nn.MaxPool2d(2))
        self.block = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16),
                                   nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1, bias=False),
                                   nn.BatchNorm2d(16))
        self.down = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.head = nn.Linear(32, classes)

    def forward(self, x):
        x = self.stem(x)
        x = torch.relu(self.block(x) + x)
        x = self.down(x)
        x = torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1)
        return torch.softmax(self.head(x), dim=1)


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(7)
    model = TinyResNet().eval()
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.running_mean.uniform_(-0.2, 0.2)
            module.running_var.uniform_(0.5, 1.5)
    image = torch.rand(1, 3, 32, 32)
    torch.onnx.export(model, image, os.path.join(out_dir, "tiny_resnet.onnx"), opset_version=14,
                      input_names=["image"], output_names=["probabilities"],
                      dynamic_axes={"image": {0: "batch"}, "probabilities": {0: "batch"}})
    np.save(os.path.join(out_dir, "image.npy"), image.numpy())


if __name__ == "__main__":
    main()
