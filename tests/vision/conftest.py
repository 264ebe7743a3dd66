"""What the vision tests share: the shared photos (a missing folder fails the run rather
than skipping it) and an untaught recognizer on one thread."""

from __future__ import annotations

import cv2
import pytest
import realdata

from vision.identify import FrameReader
from vision.pipeline import Recognizer

if realdata.data_dir() is None:
    raise RuntimeError("the shared photos are missing: expected ../shared/data beside "
                       "the repository")


@pytest.fixture(scope="module")
def rec() -> Recognizer:
    cv2.setNumThreads(1)
    return Recognizer()


@pytest.fixture(scope="module")
def reader() -> FrameReader:
    """What ``companion identify`` reads frames with (cards and QR codes), on one thread."""
    cv2.setNumThreads(1)
    return FrameReader()
