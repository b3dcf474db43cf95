"""One still frame for the vision commands: from an image file, a camera, or a rendered table."""
from __future__ import annotations

from pathlib import Path
from typing import cast

import numpy as np
import numpy.typing as npt

from controller.cli import CliError

Image = npt.NDArray[np.uint8]  # an 8-bit BGR frame (OpenCV's loose MatLike is cast to it where read)


def one_frame(image: str | None = None, camera: str | None = None, synthetic: bool = False,
              style: str | None = None) -> Image:
    """The BGR frame the command was given (``--image``, ``--camera`` or ``--synthetic``); a clear
    :class:`CliError` when there is none or it cannot be read."""
    import cv2

    if image:
        if not Path(image).is_file():
            raise CliError(f"no such image file: {image}")
        img = cv2.imread(str(image), cv2.IMREAD_COLOR)
        if img is None:
            raise CliError(f"cannot read image {image}")
        return cast(Image, img)
    if camera:
        from vision.camera import open_source

        try:
            src = open_source(camera)
            f = src.read()
            src.close()
        except (OSError, ImportError, ValueError, RuntimeError) as exc:  # (vision.camera: one line each)
            raise CliError(f"camera {camera}: {exc}") from None
        if f is None:
            raise CliError(f"camera {camera} gave no frame")
        return f.image
    if synthetic:
        from vision.scene_model import Scene
        from vision.scene_render import render_scene

        return render_scene(Scene("riichi-ema2016"), seed=0, style=style)[0]
    raise CliError("give a frame: --image FILE, --camera SPEC or --synthetic")
