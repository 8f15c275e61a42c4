"""The common blob + DBSCAN dice reader, kept small, as a yardstick for speed (not accuracy).

What tutorials and many hobby projects do: OpenCV's SimpleBlobDetector finds pips in the grey
image, DBSCAN groups pips closer than `eps` into dice, and each group's size is its value.
It knows nothing of faces, tilt or clutter; benchmarks/bench_vision.py times the reader
against it on the same photos.
"""

from __future__ import annotations

import cv2
import numpy as np


def dbscan(points: np.ndarray, eps: float, min_samples: int = 1) -> np.ndarray:
    """Cluster labels (n,) of DBSCAN over (n, 2) points; -1 for noise."""
    n = len(points)
    labels = np.full(n, -1)
    if n == 0:
        return labels
    near = np.linalg.norm(points[:, None] - points[None], axis=2) <= eps
    core = near.sum(axis=1) >= min_samples
    cluster = 0
    for i in range(n):
        if labels[i] != -1 or not core[i]:
            continue
        stack = [i]
        labels[i] = cluster
        while stack:
            j = stack.pop()
            if not core[j]:
                continue
            for k in np.nonzero(near[j] & (labels == -1))[0]:
                labels[k] = cluster
                stack.append(k)
        cluster += 1
    return labels


def read_blobs(frame: np.ndarray) -> list[int]:
    """Values of the dice in a BGR frame, by pip blobs grouped with DBSCAN."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    scale = 640 / max(grey.shape)
    if scale < 1:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    params = cv2.SimpleBlobDetector_Params()
    params.filterByInertia = True
    params.minInertiaRatio = 0.6
    params.filterByArea = True
    params.minArea = 6
    detector = cv2.SimpleBlobDetector_create(params)
    points = np.array([k.pt for k in detector.detect(grey)], float).reshape(-1, 2)
    labels = dbscan(points, eps=0.04 * max(grey.shape))
    return [int(np.sum(labels == c)) for c in range(labels.max() + 1) if np.sum(labels == c) <= 6]
