"""classify.Looks: the classifier's answers on one frame, each box looked at once, shared by
the die finder's merge and the judge."""

from __future__ import annotations

import numpy as np

from tests.vision.synth import DrawnDie, scene
from vision import classify
from vision.classify import Looks, guess_faces
from vision.params import ClassifyParams

DICE = [DrawnDie(2, (160.0, 140.0), 60.0, 10.0), DrawnDie(5, (420.0, 300.0), 60.0, 40.0)]
BOXES = [(160.0, 140.0, 75.0), (420.0, 300.0, 75.0), (300.0, 60.0, 75.0)]


def test_looks_answer_as_the_classifier_does():
    frame = scene(DICE)
    looks = Looks(frame, ClassifyParams(one_look=0.9))
    for mine, theirs in zip(looks(BOXES), guess_faces(frame, BOXES, 0.9), strict=True):
        assert mine.value == theirs.value
        assert np.isclose(mine.p, theirs.p, atol=1e-5)
    assert [g.value for g in looks(BOXES[:2])] == [2, 5]


def test_each_box_is_looked_at_once(monkeypatch):
    asked: list[list[tuple[float, float, float]]] = []

    def counted(frame, boxes, one_look=None):
        asked.append(list(boxes))
        return guess_faces(frame, boxes, one_look)

    monkeypatch.setattr(classify, "guess_faces", counted)
    looks = Looks(scene(DICE), ClassifyParams(one_look=0.9))
    first = looks(BOXES[:2])
    again = looks([BOXES[1], BOXES[2], BOXES[1]])
    assert asked == [BOXES[:2], [BOXES[2]]]  # the new box alone, once
    assert again[0] is first[1] and again[2] is first[1]
