import TiltsimCommand

Tiltsim.runMain()
