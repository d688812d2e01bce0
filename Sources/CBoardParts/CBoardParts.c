#include "CBoardParts.h"
