"""Train the tile classifier on the cached renders, calibrate it and export ``vision/models/tiles.onnx``.

The exact commands that produced the shipped model (after ``python -m vision.train.make_assets``;
``tiles.json`` records them too)::

    python -m vision.train.dataset --per-label 500 --random-styles 24 --random-per-label 60 --workers 2
    OMP_WAIT_POLICY=PASSIVE python -m vision.train.train --minutes 27 --threads 2 --seed 0 \
        --out vision/train/cache/candidate.onnx
    cp vision/train/cache/candidate.onnx vision/models/tiles.onnx
    cp vision/train/cache/candidate.json vision/models/tiles.json
    python -m vision.train.tune_fusion --write

Needs the ``[train]`` extra (torch 2.13.0 CPU, onnx). The held-out style (``kai``) is never used for
training or calibration; it only serves the enrollment evaluation.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.tile_labels import CLASS_LABELS, NONE
from vision.train.dataset import CACHE, HELD_OUT_STYLES, RANDOM_STYLE_ID0, STYLE_IDS, TRAIN_STYLES
from vision.train.episodes import Episodes
from vision.train.model import COS_SCALE, TileNet

MODELS = Path(__file__).resolve().parents[1] / "models"
MARGIN = 0.15  # CosFace margin on the target class (in cosine units)
NONE_IDX = CLASS_LABELS.index(NONE)
EPISODE_SCALE = 20.0  # cosine scale of the episodic (prototype) loss: the tile-set fusion's scale


def episode_loss(emb: torch.Tensor, episodes: Episodes, n_classes: int) -> torch.Tensor:
    """Prototype cross-entropy of an episode's embeddings (in :meth:`Episodes.draw`'s order): each class's
    support crops are averaged into its prototype, its query crops are classified by the nearest one."""
    e = emb.view(n_classes, episodes.support + episodes.query, -1)
    protos = F.normalize(e[:, :episodes.support].mean(1), dim=1)
    q = e[:, episodes.support:].reshape(-1, e.shape[-1])
    target = torch.arange(n_classes, device=emb.device).repeat_interleave(episodes.query)
    return F.cross_entropy(EPISODE_SCALE * q @ protos.t(), target)


def load(name: str) -> dict[str, np.ndarray]:
    with np.load(CACHE / f"{name}.npz") as z:
        return {k: z[k] for k in z.files}


def to_tensor(x: np.ndarray) -> torch.Tensor:
    """uint8 NHWC RGB -> float NCHW in [0, 1]."""
    return torch.from_numpy(x).permute(0, 3, 1, 2).float().div_(255.0)


def rotate_batch(x: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """Turn each image k[i] quarter turns counter-clockwise (as ``np.rot90`` on HWC)."""
    out = torch.empty_like(x)
    for q in range(4):
        m = k == q
        if m.any():
            out[m] = torch.rot90(x[m], q, dims=(2, 3))
    return out


def orientation_loss(o_logits: torch.Tensor, k: torch.Tensor, sym: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Cross-entropy on the orientation; half-turn-symmetric faces count both k and k+2; none is ignored."""
    logp = F.log_softmax(o_logits, dim=1)
    p_k = logp.gather(1, k[:, None])[:, 0]
    p_k2 = logp.gather(1, ((k + 2) % 4)[:, None])[:, 0]
    nll = torch.where(sym, -torch.logaddexp(p_k, p_k2), -p_k)
    w = (y != NONE_IDX).float()
    return (nll * w).sum() / w.sum().clamp(min=1.0)


def evaluate(model: TileNet, data: dict[str, np.ndarray], batch: int = 512,
             device: str = "cpu") -> tuple[np.ndarray, np.ndarray]:
    """Logits and orientation logits for a cached set (rendered in their true orientation)."""
    model.eval()
    logits, orients = [], []
    with torch.no_grad():
        for i in range(0, len(data["y"]), batch):
            lg, o, _ = model(to_tensor(data["x"][i:i + batch]).to(device, memory_format=torch.channels_last))
            logits.append(lg.cpu().numpy())
            orients.append(o.cpu().numpy())
    return np.concatenate(logits), np.concatenate(orients)


def calibrate(logits: np.ndarray, y: np.ndarray) -> float:
    """Temperature minimising the validation negative log-likelihood."""
    best_t, best_nll = 1.0, float("inf")
    for t in np.exp(np.linspace(np.log(0.2), np.log(5.0), 80)):
        z = logits / t
        z = z - z.max(1, keepdims=True)
        nll = float(-(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(1))).mean())
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    return best_t


def load_onnx_weights(model: TileNet, path: Path) -> None:
    """Start ``model`` from an exported model (``tiles.onnx``): the export folded every convolution's batch
    norm into its weights and bias, so each conv takes the folded weights and its batch norm becomes the
    identity plus that bias (mean 0, variance 1 - eps, scale 1). Train such a model with frozen batch-norm
    statistics (``--init-onnx`` does): batch statistics would no longer match the folded weights."""
    import onnx
    from onnx import numpy_helper

    g = onnx.load(str(path)).graph
    init = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    convs = [n for n in g.node if n.op_type == "Conv"]
    blocks = [m for m in model.features if isinstance(m, torch.nn.Sequential)]
    if len(convs) != len(blocks):
        raise ValueError(f"{path}: {len(convs)} convolutions, the network has {len(blocks)}")
    state = model.state_dict()
    for node, block in zip(convs, blocks):
        w, b = init[node.input[1]], init[node.input[2]]
        idx = list(model.features).index(block)
        pre = f"features.{idx}"
        state[f"{pre}.0.weight"] = torch.from_numpy(w.copy())
        bn = block[1]
        state[f"{pre}.1.weight"] = torch.ones_like(state[f"{pre}.1.weight"])
        state[f"{pre}.1.bias"] = torch.from_numpy(b.copy())
        state[f"{pre}.1.running_mean"] = torch.zeros_like(state[f"{pre}.1.running_mean"])
        state[f"{pre}.1.running_var"] = torch.full_like(state[f"{pre}.1.running_var"], 1.0 - bn.eps)
    matmul = next(n for n in g.node if n.op_type == "MatMul" and n.input[1] in init)
    state["hidden.1.weight"] = torch.from_numpy(init[matmul.input[1]].T.copy())
    for k in ("hidden.2.weight", "hidden.2.bias", "hidden.2.running_mean", "hidden.2.running_var",
              "emb.weight", "emb.bias", "orient.weight", "orient.bias", "class_w"):
        state[k] = torch.from_numpy(init[k].copy())
    model.load_state_dict(state)


def freeze_batchnorm(model: torch.nn.Module) -> None:
    """Batch-norm layers keep their running statistics (their scale and shift still train)."""
    for m in model.modules():
        if isinstance(m, (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d)):
            m.eval()


def choose_threshold(conf: np.ndarray, correct: np.ndarray, max_error: float = 5e-4) -> float:
    """Lowest confidence threshold whose accepted answers are wrong at most ``max_error`` of the time."""
    for thr in np.linspace(0.3, 0.95, 66):
        acc = conf >= thr
        if acc.sum() == 0 or (~correct[acc]).mean() <= max_error:
            return float(round(thr, 3))
    return 0.95


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=25.0,
                    help="training wall-clock budget; the learning rate follows a warm-up + cosine over it")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=MODELS / "tiles.onnx")
    ap.add_argument("--steps", type=int, default=0,
                    help="train for this many steps instead of a wall-clock budget (schedule over steps)")
    ap.add_argument("--warmup", type=float, default=0.05, help="share of the schedule spent warming up")
    ap.add_argument("--init", type=Path, default=None, help="start from this checkpoint (.pt) instead of scratch")
    ap.add_argument("--init-onnx", type=Path, default=None,
                    help="start from an exported model (e.g. vision/models/tiles.onnx), batch norm frozen")
    ap.add_argument("--photoreal", action="store_true",
                    help="also train on the cache's photo-like crops (photo_train.npz: dataset --photoreal N)")
    ap.add_argument("--photo-repeat", type=int, default=1,
                    help="draw each photo-like crop this many times as often as a flat one")
    ap.add_argument("--episode-weight", type=float, default=1.0,
                    help="weight of the in-style few-shot episode loss (0: no episodes)")
    ap.add_argument("--episode-support", type=int, default=2, help="support crops per class in an episode")
    ap.add_argument("--emb-dim", type=int, default=64, help="embedding size (tile-set prototypes)")
    ap.add_argument("--random-styles", type=int, default=-1,
                    help="train on only the first N randomised styles of the cache (default: all)")
    ap.add_argument("--device", default="cpu", help="torch device (the shipped model is trained on the CPU)")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    t_start = time.time()

    train, val = load("train"), load("val")
    if args.random_styles >= 0:
        keep = train["style"] < RANDOM_STYLE_ID0 + args.random_styles
        train = {k: v[keep] for k, v in train.items()}
    n_flat = len(train["y"])
    if args.photoreal:
        photo = load("photo_train")
        train = {k: np.concatenate([train[k], photo[k]]) for k in train}
        print(f"{len(photo['y'])} photo-like crops added", flush=True)
    n = len(train["y"])
    counts = np.bincount(train["y"], minlength=len(CLASS_LABELS)).astype(np.float64)
    reps = np.clip(np.round(np.median(counts[counts > 0]) / np.maximum(counts, 1)), 1, 3).astype(int)  # f, j
    reps_i = reps[train["y"]] * np.where(np.arange(n) >= n_flat, max(1, args.photo_repeat), 1)
    base_index = np.repeat(np.arange(n), reps_i)
    dev = torch.device(args.device)
    x_all = torch.from_numpy(train["x"]).to(dev)
    y_all = torch.from_numpy(train["y"].astype(np.int64)).to(dev)
    sym_all = torch.from_numpy(train["sym"]).to(dev)
    episodes = Episodes(train["y"], train["style"], support=args.episode_support) if args.episode_weight else None

    input_size = int(train["x"].shape[1])  # the cache's crop size (``dataset --size``): the network's input
    model = TileNet(len(CLASS_LABELS), input_size, emb_dim=args.emb_dim)
    if args.init:
        model.load_state_dict(torch.load(args.init))
        print(f"starting from {args.init}", flush=True)
    if args.init_onnx:
        load_onnx_weights(model, args.init_onnx)
        print(f"starting from {args.init_onnx} (batch norm frozen)", flush=True)
    model = model.to(dev, memory_format=torch.channels_last)  # channels-last convolutions: ~1.3x on the CPU
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60.0
    t_train = time.time()
    progress, step, epoch = 0.0, 0, 0
    while progress < 1.0:
        model.train()
        if args.init_onnx:
            freeze_batchnorm(model)
        order = rng.permutation(base_index)
        t0, tot, tot_ok, b = time.time(), 0.0, 0, 0
        for b in range(len(order) // args.batch):
            progress = step / args.steps if args.steps else (time.time() - t_train) / budget
            if progress >= 1.0:
                break
            if step % 500 == 0 and step:
                torch.save(model.state_dict(), CACHE / f"{args.out.stem}.pt")
            lr = args.lr * min(1.0, progress / max(args.warmup, 1e-6)) * 0.5 * (1 + np.cos(np.pi * progress))
            for g in opt.param_groups:
                g["lr"] = lr
            idx = torch.from_numpy(order[b * args.batch:(b + 1) * args.batch])
            k = torch.randint(0, 4, (len(idx),))
            if episodes is not None:  # one quarter turn for a whole episode: prototypes are per turn
                ep_idx, ep_classes = episodes.draw(rng)
                idx = torch.cat([idx, torch.from_numpy(ep_idx)])
                k = torch.cat([k, torch.full((len(ep_idx),), int(rng.integers(4)))])
            idx, k = idx.to(dev), k.to(dev)
            x = x_all[idx].permute(0, 3, 1, 2).float().div_(255.0)
            x = rotate_batch(x, k)
            # cheap photometric jitter on top of the rendered one
            x = (x * torch.empty(len(idx), 1, 1, 1, device=dev).uniform_(0.8, 1.2)
                 + torch.empty(len(idx), 1, 1, 1, device=dev).uniform_(-0.08, 0.08))
            x = x.clamp_(0, 1).contiguous(memory_format=torch.channels_last)
            y, sym = y_all[idx], sym_all[idx]
            logits, o_logits, emb = model(x)
            margin = F.one_hot(y, len(CLASS_LABELS)).float() * (MARGIN * COS_SCALE)
            loss = F.cross_entropy(logits - margin, y) + 0.5 * orientation_loss(o_logits, k, sym, y)
            if episodes is not None:
                loss = loss + args.episode_weight * episode_loss(emb[args.batch:], episodes, ep_classes)
            logits, y = logits[:args.batch], y[:args.batch]
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            tot += loss.item()
            tot_ok += int((logits.argmax(1) == y).sum())
            if step % 100 == 0:
                print(f"  step {step} lr {lr:.5f} loss {tot / (b + 1):.4f} ({time.time() - t_train:.0f}s)", flush=True)
        epoch += 1
        torch.save(model.state_dict(), CACHE / f"{args.out.stem}.pt")
        if args.steps and step >= args.steps:
            progress = 1.0
        lg, _ = evaluate(model, val, device=args.device)
        val_acc = float((lg.argmax(1) == val["y"]).mean())
        print(f"epoch {epoch} ({progress:.0%} of the budget, {step} steps) loss {tot / (b + 1):.4f} "
              f"train acc {tot_ok / ((b + 1) * args.batch):.4f} "
              f"val acc {val_acc:.5f} ({time.time() - t0:.0f}s)", flush=True)

    # calibration and per-style report on the validation set (rendered in all four orientations)
    lg, og = evaluate(model, val, device=args.device)
    temp = calibrate(lg, val["y"])
    z = lg / temp
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    pred, conf = p.argmax(1), p.max(1)
    correct = pred == val["y"]
    thr = choose_threshold(conf, correct)
    o_pred = og.argmax(1)
    o_ok = np.where(val["sym"], (o_pred % 2) == (val["orient"] % 2), o_pred == val["orient"])
    o_mask = val["y"] != NONE_IDX
    report = {"val_accuracy": float(correct.mean()), "val_orientation_accuracy": float(o_ok[o_mask].mean()),
              "val_coverage_at_threshold": float((conf >= thr).mean()),
              "val_accuracy_accepted": float(correct[conf >= thr].mean())}
    for name, sid in STYLE_IDS.items():
        m = val["style"] == sid
        if m.any():
            report[f"val_accuracy_{name}"] = float(correct[m].mean())
    m = val["y"] == NONE_IDX
    report["val_accuracy_none"] = float(correct[m].mean())
    if (CACHE / "photo_val.npz").is_file():  # photo-like crops of the training styles, looks never trained on
        pv = load("photo_val")
        lg_p, _ = evaluate(model, pv, device=args.device)
        report["photo_val_accuracy"] = float((lg_p.argmax(1) == pv["y"]).mean())
    print(json.dumps(report, indent=1), flush=True)

    model = model.cpu().to(memory_format=torch.contiguous_format).eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.rand(2, 3, input_size, input_size)
    torch.onnx.export(model, (dummy,), str(args.out), input_names=["input"],
                      output_names=["logits", "orientation", "embedding"],
                      dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}, "orientation": {0: "n"}, "embedding": {0: "n"}},
                      opset_version=17, dynamo=False)
    meta = {
        "classes": list(CLASS_LABELS),
        "input_size": input_size,
        "temperature": temp,
        "threshold": thr,
        "cos_scale": COS_SCALE,
        "train_styles": list(TRAIN_STYLES),
        "held_out_styles": list(HELD_OUT_STYLES),
        "train_crops": int(n),
        "init": str(args.init_onnx or args.init or ""),
        "photoreal": bool(args.photoreal),
        "epochs": epoch,
        "steps": step,
        "train_seconds": round(time.time() - t_start),
        "command": "python -m vision.train.train " + " ".join(argv if argv is not None else __import__("sys").argv[1:]),
        **report,
    }
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) in {time.time() - t_start:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
