"""The zoo's model families; all_specs() lists every model of every family, ci-slice ones too."""
from . import convnets, decoders, encoders, torchvision_models


def all_specs():
    specs = []
    for module in (encoders, decoders, convnets, torchvision_models):
        specs += module.specs()
    names = [spec.name for spec in specs]
    assert len(names) == len(set(names)), "zoo model names must be unique"
    return specs
