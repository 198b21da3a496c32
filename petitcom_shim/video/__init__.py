"""Video subsystem of the emulated Petit Computer: palettes, CHR, console, BG, sprites, GRP."""
