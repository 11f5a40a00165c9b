// Compiled by both builds, without backend macros.
#include "backend/shared.h"

int common_value() { return 1; }
