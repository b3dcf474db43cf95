"""The tile network (torch; training only). Exported to ONNX by :mod:`vision.train.train`.

Input: ``(N, 3, S, S)`` float RGB in [0, 1] (see :func:`vision.tile_classifier.preprocess`).
Outputs: ``logits`` (N, classes) -- cosine similarity to the class weights times a fixed scale;
``orientation`` (N, 4) logits; ``embedding`` (N, D) L2-normalised, used for tile-set prototypes.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

COS_SCALE = 16.0


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TileNet(nn.Module):
    def __init__(self, n_classes: int, input_size: int = 48, emb_dim: int = 64) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _conv(3, 16, 2),  # S/2
            _conv(16, 32), nn.MaxPool2d(2),  # S/4
            _conv(32, 64), nn.MaxPool2d(2),  # S/8
            _conv(64, 96),
        )
        cells = (input_size // 8) ** 2
        self.hidden = nn.Sequential(nn.Flatten(), nn.Linear(96 * cells, 128, bias=False), nn.BatchNorm1d(128),
                                    nn.ReLU(inplace=True))
        self.emb = nn.Linear(128, emb_dim)
        self.class_w = nn.Parameter(torch.randn(n_classes, emb_dim) * 0.1)
        self.orient = nn.Linear(128, 4)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        h = self.hidden(self.features((x - 0.5) * 4.0))
        e = F.normalize(self.emb(h), dim=1)
        cos = e @ F.normalize(self.class_w, dim=1).t()
        return cos * COS_SCALE, self.orient(h), e
