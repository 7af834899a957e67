"""torchvision 0.14's models with random weights (weights=None, weights_backbone=None: nothing is
downloaded): every classification architecture, the detection / segmentation / keypoint / video /
optical-flow models the issue names (and their siblings), and small configurations of a few
architectures for the CI slice."""
import re

import numpy as np
import torch
import torch.nn as nn
from torchvision import models
from torchvision.models import detection, optical_flow, segmentation, video

from .common import Spec, images

# Family of a classification model: its name up to the first size/variant suffix.
FAMILY_PATTERNS = [
    ("resnext", r"^resnext"), ("wide_resnet", r"^wide_resnet"), ("resnet", r"^resnet"),
    ("regnet", r"^regnet"), ("mobilenet", r"^mobilenet"), ("mnasnet", r"^mnasnet"),
    ("shufflenet", r"^shufflenet"), ("squeezenet", r"^squeezenet"), ("densenet", r"^densenet"),
    ("googlenet", r"^googlenet"), ("inception", r"^inception"), ("efficientnet", r"^efficientnet"),
    ("convnext", r"^convnext"), ("vit", r"^vit"), ("swin", r"^swin"), ("maxvit", r"^maxvit"),
    ("vgg", r"^vgg"), ("alexnet", r"^alexnet"),
]
INPUT_SIZE = {"inception_v3": 299}
RCNN_CLASSIFIER = "roi_heads.box_predictor.cls_score"
IMAGE_AXES = {0: "batch"}


def classification_family(name):
    return next(family for family, pattern in FAMILY_PATTERNS if re.match(pattern, name))


def _image_inputs(shape, trace_batch=1, run_batch=2, name="images", low=None):
    def make(rng, trace):
        full = (trace_batch if trace else run_batch,) + tuple(shape)
        if low is not None:
            return {name: rng.uniform(low, 1.0, size=full).astype(np.float32)}
        return {name: images(rng, *full)}
    return make


def _classifier(name, make, size, slices=("full",)):
    return Spec(name, classification_family(name), make, _image_inputs((3, size, size)), ["logits"],
                {"images": IMAGE_AXES, "logits": IMAGE_AXES}, slices)


class FirstImage(nn.Module):
    """A detection model fed one CHW image (the list torchvision's detectors take), its per-image
    dict flattened to the tensors named `keys` in that order (the detectors' dicts differ in
    order: boxes, labels, scores for R-CNNs, boxes, scores, labels for RetinaNet, FCOS, SSD)."""

    def __init__(self, model, keys):
        super().__init__()
        self.model, self.keys = model, keys

    def forward(self, image):
        detections = self.model([image])[0]
        return tuple(detections[key] for key in self.keys)


class Output(nn.Module):
    """A model whose output is a dict (segmentation: 'out') or a list (RAFT: every refinement)."""

    def __init__(self, model, key, **call):
        super().__init__()
        self.model, self.key, self.call = model, key, call

    def forward(self, *args):
        return self.model(*args, **self.call)[self.key]


def spread_scores(classifier, target_std=2.0):
    """A random detector's class logits barely differ (scores all near 1/classes), which makes
    its detections a coin toss at the last float bit; scaling the classifier's weights so that
    its logits spread with `target_std` gives decisions that two correct engines agree on."""
    def prepare(model, args):
        module = model.get_submodule(classifier)
        seen = []
        handle = module.register_forward_hook(lambda _m, _i, out: seen.append(
            torch.cat([o.flatten() for o in out]) if isinstance(out, (list, tuple)) else out.flatten()))
        with torch.no_grad():
            model(*args)
        handle.remove()
        scale = target_std / float(seen[0].std())
        with torch.no_grad():
            for sub in module.modules():
                if isinstance(sub, (nn.Linear, nn.Conv2d)):
                    sub.weight.mul_(scale)
    return prepare


ROI_ALIGN_NOTE = ("torchvision 0.14 exports roi_align without coordinate_transformation_mode, which from "
                  "RoiAlign-16 defaults to half_pixel (torchvision means output_half_pixel): at opset 17 "
                  "engines agree with each other, not with torch")


def _detector(name, builder, size, outputs, classifier, slices=("full",), opsets=(14, 17), **kwargs):
    def make():
        return FirstImage(builder(weights=None, weights_backbone=None, **kwargs), outputs)

    def inputs(rng, trace):
        return {"image": rng.uniform(0, 1, size=(3, size, size + (0 if trace else 16))).astype(np.float32)}

    decisions = [{"kind": "detections", "boxes": "boxes", "scores": "scores", "labels": "labels",
                  "extra": [o for o in outputs if o not in ("boxes", "scores", "labels")]}]
    axes = {"image": {1: "height", 2: "width"}, **{o: {0: "detections"} for o in outputs}}
    return Spec(name, "detection", make, inputs, outputs, axes, slices, opsets, decisions=decisions,
                prepare=spread_scores("model." + classifier),
                note=ROI_ALIGN_NOTE if "rcnn" in name and 17 in opsets else None)


def _segmenter(name, builder, size, slices=("full",), **kwargs):
    image_axes = {0: "batch", 2: "height", 3: "width"}
    return Spec(name, "segmentation",
                lambda: Output(builder(weights=None, weights_backbone=None, **kwargs), "out"),
                _image_inputs((3, size, size)), ["out"], {"images": image_axes, "out": image_axes}, slices)


def _video(name, make, frames, size, slices=("full",)):
    return Spec(name, "video", make, _image_inputs((3, frames, size, size)), ["logits"],
                {"images": {0: "batch"}, "logits": {0: "batch"}}, slices)


def _flow(name, builder, size, updates, slices=("full",)):
    def inputs(rng, trace):
        b = 1 if trace else 2
        return {f"image{i}": rng.uniform(-1, 1, size=(b, 3, size, size)).astype(np.float32) for i in (1, 2)}
    axes = {0: "batch", 2: "height", 3: "width"}
    return Spec(name, "optical_flow",
                lambda: Output(builder(weights=None), -1, num_flow_updates=updates), inputs, ["flow"],
                {"image1": axes, "image2": axes, "flow": axes}, slices)


def _tiny_classifiers():
    resnet = models.resnet
    convnext = models.convnext
    return [
        _classifier("resnet_tiny", lambda: resnet.ResNet(resnet.Bottleneck, [1, 1, 1, 1], width_per_group=16),
                    64, ("ci", "full")),
        _classifier("mobilenet_v3_small_tiny", lambda: models.mobilenet_v3_small(weights=None), 64,
                    ("ci", "full")),
        _classifier("convnext_mini", lambda: convnext.ConvNeXt(
            [convnext.CNBlockConfig(16, 32, 1), convnext.CNBlockConfig(32, None, 1)]), 32, ("ci", "full")),
        _classifier("vit_tiny", lambda: models.VisionTransformer(
            image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=32, mlp_dim=64), 32,
            ("ci", "full")),
        _classifier("swin_tiny", lambda: models.SwinTransformer(
            patch_size=[4, 4], embed_dim=16, depths=[2, 2], num_heads=[2, 4], window_size=[4, 4]), 32,
            ("ci", "full")),
        _classifier("maxvit_tiny", lambda: models.MaxVit(
            input_size=(64, 64), stem_channels=16, partition_size=4, block_channels=[16, 32],
            block_layers=[1, 1], head_dim=8, stochastic_depth_prob=0.0), 64, ("ci", "full")),
    ]


def specs():
    out = [_classifier(name, lambda name=name: models.get_model(name, weights=None),
                       INPUT_SIZE.get(name, 224)) for name in models.list_models(module=models)]
    out += _tiny_classifiers()
    box_outputs = ["boxes", "labels", "scores"]
    out += [
        _detector("fasterrcnn_mobilenet_v3_large_320_fpn", detection.fasterrcnn_mobilenet_v3_large_320_fpn,
                  320, box_outputs, RCNN_CLASSIFIER),
        _detector("fasterrcnn_tiny", detection.fasterrcnn_mobilenet_v3_large_320_fpn, 96, box_outputs,
                  RCNN_CLASSIFIER, ("ci", "full"), (14,), min_size=96, max_size=128,
                  rpn_pre_nms_top_n_test=100, rpn_post_nms_top_n_test=50, box_detections_per_img=20),
        _detector("fasterrcnn_resnet50_fpn", detection.fasterrcnn_resnet50_fpn, 320, box_outputs,
                  RCNN_CLASSIFIER, min_size=320, max_size=400),
        _detector("retinanet_resnet50_fpn", detection.retinanet_resnet50_fpn, 320, box_outputs,
                  "head.classification_head.cls_logits", min_size=320, max_size=400),
        _detector("fcos_resnet50_fpn", detection.fcos_resnet50_fpn, 320, box_outputs,
                  "head.classification_head.cls_logits", min_size=320, max_size=400),
        _detector("ssd300_vgg16", detection.ssd300_vgg16, 300, box_outputs, "head.classification_head"),
        _detector("ssdlite320_mobilenet_v3_large", detection.ssdlite320_mobilenet_v3_large, 320, box_outputs,
                  "head.classification_head"),
        _detector("maskrcnn_resnet50_fpn", detection.maskrcnn_resnet50_fpn, 320, box_outputs + ["masks"],
                  RCNN_CLASSIFIER, min_size=320, max_size=400),
        _detector("keypointrcnn_resnet50_fpn", detection.keypointrcnn_resnet50_fpn, 320,
                  box_outputs + ["keypoints", "keypoints_scores"], RCNN_CLASSIFIER, min_size=320,
                  max_size=400),
        _segmenter("deeplabv3_resnet50", segmentation.deeplabv3_resnet50, 224, aux_loss=False),
        _segmenter("deeplabv3_mobilenet_v3_large", segmentation.deeplabv3_mobilenet_v3_large, 224,
                   aux_loss=False),
        _segmenter("fcn_resnet50", segmentation.fcn_resnet50, 224, aux_loss=False),
        _segmenter("lraspp_mobilenet_v3_large", segmentation.lraspp_mobilenet_v3_large, 224),
        _segmenter("lraspp_tiny", segmentation.lraspp_mobilenet_v3_large, 64, ("ci", "full")),
        _video("r3d_18", lambda: video.r3d_18(weights=None), 8, 112),
        _video("mc3_18", lambda: video.mc3_18(weights=None), 8, 112),
        _video("r2plus1d_18", lambda: video.r2plus1d_18(weights=None), 8, 112),
        _video("s3d", lambda: video.s3d(weights=None), 16, 224),
        _video("mvit_v1_b", lambda: video.mvit_v1_b(weights=None), 16, 224),
        _video("mvit_v2_s", lambda: video.mvit_v2_s(weights=None), 16, 224),
        _video("r3d_tiny", lambda: video.VideoResNet(
            video.resnet.BasicBlock, [video.resnet.Conv3DSimple] * 4, [1, 1, 1, 1], video.resnet.BasicStem),
            4, 32, ("ci", "full")),
        _flow("raft_small", optical_flow.raft_small, 128, 12),
        _flow("raft_large", optical_flow.raft_large, 128, 12),
        _flow("raft_small_tiny", optical_flow.raft_small, 128, 2, ("ci", "full")),
    ]
    return out
