"""The WSAP adapters: the Labyrinth as a WSAP GameAdapter and AvatarGameAdapter."""
