"""The documented path of the WSAP adapters (docs/wsap.md); the code is in wsap/adapters.py."""

from .wsap.adapters import LabyrinthAdapter, make_adapter

__all__ = ["LabyrinthAdapter", "make_adapter"]
