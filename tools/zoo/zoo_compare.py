"""Output comparison for the zoo runner: numbers within rtol/atol, integer and bool outputs
exactly, and decision outputs as decisions (an argmax may pick a near-tied alternative; a
detection list may differ by the few detections on a threshold's edge)."""
import os

import numpy as np

# Differences up to this many times torch's own float32 rounding (build_zoo.py's float32_noise)
# are rounding, not error, even where they exceed rtol/atol.
NOISE_FACTOR = 4.0
# A detection list may differ by this fraction of its detections (at least one): the ones whose
# score sits on the score threshold, whose overlap sits on the NMS threshold or that tie at top-k.
DETECTION_SLACK = 0.05


class Result:
    """ok, the largest absolute and relative differences, and a message when not ok."""

    def __init__(self):
        self.ok, self.max_abs, self.max_rel, self.messages, self.notes = True, 0.0, 0.0, [], []
        self.within_noise = False

    def fail(self, message):
        self.ok = False
        self.messages.append(message)

    def cell(self):
        worst = f"{self.max_abs:.1e}"
        return ("ok~ " if self.within_noise else "ok ") + worst if self.ok else f"MISMATCH {worst}"

    def summary(self):
        return dict(ok=self.ok, max_abs=self.max_abs, max_rel=self.max_rel, messages=self.messages,
                    notes=self.notes, within_noise=self.within_noise)


def load_dir(directory):
    if not os.path.isdir(directory):
        return {}
    return {name[:-4]: np.load(os.path.join(directory, name))
            for name in os.listdir(directory) if name.endswith(".npy")}


def close(expected, actual, rtol, atol, result, name, noise=None, scale=None):
    """Whether `actual` is within atol + rtol * |expected| of `expected` (or within
    atol + rtol * scale, where `scale` is given: the magnitude the values are measured against,
    such as a box's largest coordinate); failures are added to `result`."""
    if expected.shape != actual.shape:
        result.fail(f"{name}: shape {list(actual.shape)}, expected {list(expected.shape)}")
        return False
    if expected.size == 0:
        return True
    if expected.dtype.kind in "biu":
        wrong = int(np.count_nonzero(expected != actual))
        if wrong:
            result.fail(f"{name}: {wrong} of {expected.size} values differ")
        return not wrong
    e, a = expected.astype(np.float64), actual.astype(np.float64)
    both_nan = np.isnan(e) & np.isnan(a)
    diff = np.where(both_nan, 0.0, np.abs(a - e))
    diff = np.where(np.isnan(diff), np.inf, diff)
    result.max_abs = max(result.max_abs, float(diff.max()))
    nonzero = np.abs(e) > atol
    if nonzero.any():
        result.max_rel = max(result.max_rel, float((diff[nonzero] / np.abs(e[nonzero])).max()))
    allowed = atol + rtol * (np.abs(e) if scale is None else scale)
    bad = diff > allowed
    if bad.any() and noise and float(diff.max()) <= NOISE_FACTOR * noise:
        result.within_noise = True
        result.notes.append(f"{name}: {int(bad.sum())} values beyond rtol/atol, all within "
                            f"{NOISE_FACTOR:g}x torch's float32 noise {noise:.2g}")
        return True
    if bad.any():
        index = np.unravel_index(int(np.argmax(diff - allowed)), diff.shape)
        result.fail(f"{name}: {int(bad.sum())} of {e.size} values out of tolerance, worst at {list(index)}: "
                    f"{a[index]:.6g} vs expected {e[index]:.6g}")
        return False
    return True


def compare_argmax(decision, expected, actual, rtol, atol, result):
    name = decision["output"]
    if name not in actual:
        result.fail(f"{name}: missing")
        return
    e, a = expected[name], actual[name]
    if e.shape != a.shape:
        result.fail(f"{name}: shape {list(a.shape)}, expected {list(e.shape)}")
        return
    scores = expected[decision["scores"]].astype(np.float64)
    while scores.ndim > e.ndim + 1:
        scores = scores[..., -1, :]
    flat_scores, flat_e, flat_a = scores.reshape(-1, scores.shape[-1]), e.reshape(-1), a.reshape(-1)
    for i in np.nonzero(flat_e != flat_a)[0]:
        best, chosen = flat_scores[i, flat_e[i]], flat_scores[i, flat_a[i]]
        if chosen < best - (atol + rtol * abs(best)):
            result.fail(f"{name}[{i}]: chose {flat_a[i]} (score {chosen:.6g}), "
                        f"expected {flat_e[i]} (score {best:.6g})")
        else:
            result.notes.append(f"{name}[{i}]: near-tie {flat_a[i]} for {flat_e[i]}")


def compare_detections(decision, expected, actual, rtol, atol, result):
    """Matches each expected detection, best score first, to an unmatched actual one of the same
    label whose box and score agree. Extras (masks, keypoints) are compared on the matched pairs;
    they are decisions too (a keypoint is the argmax of a heatmap resampled to the box's rounded
    size, a mask is pasted into the box's rounded pixels), so a few detections may differ there."""
    boxes, scores, labels = decision["boxes"], decision["scores"], decision["labels"]
    extras = decision.get("extra", [])
    missing = [k for k in [boxes, scores, labels] + extras if k not in actual]
    if missing:
        result.fail(f"missing detection outputs {missing}")
        return
    eb, es, el = expected[boxes], expected[scores], expected[labels]
    ab, as_, al = actual[boxes], actual[scores], actual[labels]
    if len(eb) == len(ab) and np.array_equal(el, al) and len(eb) and \
            close(eb, ab, rtol, atol, Result(), boxes, scale=np.abs(eb).max(axis=1, keepdims=True)) and \
            close(es, as_, rtol, atol, Result(), scores):
        pairs = [(i, i) for i in range(len(eb))]
    else:
        pairs = match_detections(eb, es, el, ab, as_, al, rtol, atol)
        swaps = tie_swaps(pairs, es, el, as_, al, rtol, atol)
        slack = max(1, int(DETECTION_SLACK * max(len(eb), 1)))
        note = (f"{len(pairs)} of {len(eb)} detections matched ({len(ab)} found), "
                f"{swaps} more swapped for one of equal label and score")
        if len(eb) - len(pairs) - swaps > slack or len(ab) - len(pairs) - swaps > slack:
            result.fail(note)
        else:
            result.notes.append(note)
    if not pairs:
        return
    e_idx, a_idx = (np.array(p) for p in zip(*pairs))
    box_scale = np.abs(eb[e_idx]).max(axis=1, keepdims=True)
    close(eb[e_idx], ab[a_idx], rtol, atol, result, boxes, scale=box_scale)
    for k in (scores, labels):
        close(expected[k][e_idx], actual[k][a_idx], rtol, atol, result, k)
    for k in extras:
        e, a = expected[k][e_idx], actual[k][a_idx]
        if e.shape != a.shape:
            result.fail(f"{k}: shape {list(a.shape)}, expected {list(e.shape)}")
            continue
        differing = [i for i in range(len(e)) if not close(e[i], a[i], rtol, atol, Result(), k)]
        if len(differing) > max(1, int(DETECTION_SLACK * len(e))):
            close(e[differing], a[differing], rtol, atol, result, f"{k} ({len(differing)} detections)")
        elif differing:
            result.notes.append(f"{k}: {len(differing)} of {len(e)} matched detections differ")


def tie_swaps(pairs, es, el, as_, al, rtol, atol):
    """How many unmatched expected detections pair with an unmatched actual one of the same label
    and score: candidates with equal scores (random heads make many: a saturated feature map
    gives every anchor in a region the same logits) are kept or dropped by top-k and NMS in an
    arbitrary order, so each engine keeps a different few of them."""
    matched_expected, matched_actual = {p[0] for p in pairs}, {p[1] for p in pairs}
    left = [j for j in range(len(as_)) if j not in matched_actual]
    swaps = 0
    for i in range(len(es)):
        if i in matched_expected:
            continue
        for j in left:
            if al[j] == el[i] and abs(as_[j] - es[i]) <= atol + rtol * abs(es[i]):
                left.remove(j)
                swaps += 1
                break
    return swaps


def match_detections(eb, es, el, ab, as_, al, rtol, atol):
    used = np.zeros(len(ab), dtype=bool)
    pairs = []
    for i in np.argsort(-es, kind="stable"):
        if not len(ab):
            break
        tolerance = atol + rtol * np.abs(eb[i]).max()
        candidates = np.nonzero(~used & (al == el[i]) & (np.abs(as_ - es[i]) <= atol + rtol * abs(es[i]))
                                & (np.abs(ab - eb[i]).max(axis=1) <= tolerance))[0]
        if len(candidates):
            used[candidates[0]] = True
            pairs.append((i, candidates[0]))
    return pairs


def compare(expected, actual, decisions, rtol, atol, noise=None):
    """Compares dicts of arrays (output name -> array); returns a Result. `noise` maps output
    names to torch's float32 noise on them."""
    noise = noise or {}
    result = Result()
    decided = set()
    for decision in decisions:
        if decision["kind"] == "argmax":
            decided.add(decision["output"])
            compare_argmax(decision, expected, actual, rtol, atol, result)
        else:
            keys = [decision["boxes"], decision["scores"], decision["labels"]] + decision.get("extra", [])
            decided.update(keys)
            compare_detections(decision, expected, actual, rtol, atol, result)
    for name, value in expected.items():
        if name in decided:
            continue
        if name not in actual:
            result.fail(f"{name}: missing")
            continue
        close(value, actual[name], rtol, atol, result, name, noise.get(name))
    return result
