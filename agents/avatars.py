"""The documented path of the AvatarGameAdapter (docs/wsap.md); the code is in wsap/avatars.py."""

from .wsap.avatars import GAME_ID, MAX_AVATARS, LabyrinthAvatars

__all__ = ["GAME_ID", "MAX_AVATARS", "LabyrinthAvatars"]
