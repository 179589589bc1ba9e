"""The core fixtures: a workspace, a state dir and a reply runner."""

from support.fixtures import *  # noqa: F403
