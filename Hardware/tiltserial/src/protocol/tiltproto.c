#include "tiltproto.h"
