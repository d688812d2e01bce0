print("tiltsim: not built yet")
