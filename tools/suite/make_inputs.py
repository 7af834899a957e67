#!/usr/bin/python3
"""Writes seeded inputs for each suite model as SUITE/inputs/<model>/<input name>.npy."""
import os
import sys

import numpy as np

INPUTS = {
    "resnet50": lambda rng: {"input": rng.standard_normal((1, 3, 224, 224), dtype=np.float32)},
    "mobilenet_v2": lambda rng: {"input": rng.standard_normal((1, 3, 224, 224), dtype=np.float32)},
    "squeezenet1_1": lambda rng: {"input": rng.standard_normal((1, 3, 224, 224), dtype=np.float32)},
    "two_branch": lambda rng: {"input": rng.standard_normal((1, 64, 56, 56), dtype=np.float32)},
    "bert_base": lambda rng: {
        "input_ids": rng.integers(0, 30522, (1, 128), dtype=np.int64),
        # The last 28 positions are padding, so the additive mask matters.
        "attention_mask": np.concatenate([np.ones((1, 100), np.int64), np.zeros((1, 28), np.int64)], 1),
        "token_type_ids": np.concatenate([np.zeros((1, 64), np.int64), np.ones((1, 64), np.int64)], 1),
    },
    "silero_vad_v5": lambda rng: {
        "input": (0.1 * rng.standard_normal((1, 512))).astype(np.float32),
        "state": np.zeros((2, 1, 128), np.float32),
        "sr": np.array(16000, np.int64),
    },
    "ppocr_v4_det": lambda rng: {"x": rng.random((1, 3, 640, 640), dtype=np.float32)},
}


def main():
    suite = sys.argv[1]
    for model, make in INPUTS.items():
        directory = os.path.join(suite, "inputs", model)
        os.makedirs(directory, exist_ok=True)
        rng = np.random.default_rng(1234)
        for name, value in make(rng).items():
            np.save(os.path.join(directory, name + ".npy"), value)


if __name__ == "__main__":
    main()
