// TiltAssets: placeholder until the display issue lands.
