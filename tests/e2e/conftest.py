"""The browsers of the browser tests: a desktop window, a phone, the folder for screenshots
(ARBITER_SCREENSHOT_DIR keeps them) and the axe accessibility checker's source."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arbiter.runtime.localservices import free_port

from .axe import axe_source
from .cdp import Browser, find_chromium


@pytest.fixture
def browser():
    b = Browser(find_chromium(), free_port())
    yield b
    b.close()


@pytest.fixture
def phone():
    b = Browser(find_chromium(), free_port(), width=390, height=844)
    # A phone's screen, whatever the smallest window the headless browser allows (500 px).
    b.call(
        "Emulation.setDeviceMetricsOverride",
        width=390,
        height=844,
        deviceScaleFactor=2,
        mobile=True,
    )
    yield b
    b.close()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("ARBITER_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def axe():
    return axe_source()
