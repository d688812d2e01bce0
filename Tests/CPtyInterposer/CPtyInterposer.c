#include "CPtyInterposer.h"
