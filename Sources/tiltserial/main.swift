print("tiltserial: not built yet")
