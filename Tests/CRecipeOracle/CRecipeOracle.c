#include "CRecipeOracle.h"
