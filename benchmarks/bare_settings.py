"""The project's settings plus the peer endpoint of the move-entry benchmark (bare_urls)."""

from arbiter.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.bare_urls"
