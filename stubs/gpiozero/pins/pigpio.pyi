from gpiozero.pins.pi import PiFactory

class PiGPIOFactory(PiFactory):
    def __init__(self, host: str | None = ..., port: int | None = ...) -> None: ...
