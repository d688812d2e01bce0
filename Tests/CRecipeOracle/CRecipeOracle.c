// The tilt scroller recipe's arithmetic, transliterated from the book's sample
// code (Recipe 1-5) with its exact C semantics: float variables, a SIGN macro
// that maps 0 to +1, and the integer abs() applied to a float (truncating it).
// Nothing here is clever on purpose: it is the oracle.
#include "CRecipeOracle.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#define SIGN(_NUM_) ((_NUM_ < 0) ? -1 : 1)
#define MIN(a, b) (((a) < (b)) ? (a) : (b))
#define MAX(a, b) (((a) > (b)) ? (a) : (b))

// The recipe calls the int abs() with a float: the argument is converted to int
// (truncated toward zero). That is the behaviour under test, so silence the
// compiler's (correct) warning about it.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wabsolute-value"
#pragma clang diagnostic ignored "-Wconversion"
void recipe_oracle_sample_apply(recipe_oracle_state *s, float ax, float ay, float az) {
    (void)ay;
    // extract the acceleration components
    float xx = -ax;
    float yy = (az + 0.5f) * 2.0f; // between face up and face forward

    // Has the direction changed?
    float accelDirX = SIGN(s->xvelocity) * -1.0f;
    float newDirX = SIGN(xx);
    float accelDirY = SIGN(s->yvelocity) * -1.0f;
    float newDirY = SIGN(yy);

    // Accelerate. To increase viscosity lower the additive value
    if (accelDirX == newDirX) s->xaccel = (abs(s->xaccel) + 0.005f) * SIGN(s->xaccel);
    if (accelDirY == newDirY) s->yaccel = (abs(s->yaccel) + 0.005f) * SIGN(s->yaccel);

    // Apply acceleration changes to the current velocity
    s->xvelocity = -s->xaccel * xx;
    s->yvelocity = -s->yaccel * yy;
}
#pragma clang diagnostic pop

void recipe_oracle_tick_apply(recipe_oracle_state *s) {
    s->xoff += s->xvelocity;
    s->xoff = MIN(s->xoff, 1.0f);
    s->xoff = MAX(s->xoff, 0.0f);

    s->yoff += s->yvelocity;
    s->yoff = MIN(s->yoff, 1.0f);
    s->yoff = MAX(s->yoff, 0.0f);
}

static uint32_t bits_of(float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

int recipe_oracle_run(const recipe_oracle_sample *samples, int count, uint64_t tick_us,
                      recipe_oracle_tick *ticks, int capacity) {
    if (count <= 0) return 0;
    recipe_oracle_state state;
    memset(&state, 0, sizeof state);
    const uint64_t t0 = samples[0].time_us;
    const uint64_t last = samples[count - 1].time_us;
    int next = 0;
    int ran = 0;
    // A merge of two sorted streams: for each tick time, every sample at or
    // before it first, then the tick. Ticks run up to the last sample's time.
    for (uint64_t k = 1; t0 + k * tick_us <= last; k++) {
        const uint64_t tick_time = t0 + k * tick_us;
        while (next < count && samples[next].time_us <= tick_time) {
            recipe_oracle_sample_apply(&state, samples[next].ax, samples[next].ay, samples[next].az);
            next++;
        }
        recipe_oracle_tick_apply(&state);
        if (ran < capacity) {
            ticks[ran].time_us = tick_time;
            ticks[ran].xoff = state.xoff;
            ticks[ran].yoff = state.yoff;
            ticks[ran].xoff_bits = bits_of(state.xoff);
            ticks[ran].yoff_bits = bits_of(state.yoff);
        }
        ran++;
    }
    return ran;
}

int recipe_oracle_float_eval_method(void) { return FLT_EVAL_METHOD == 0; }
