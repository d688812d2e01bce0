// A C transliteration of the tilt scroller recipe (Advanced Cookbook, Recipe 1-5),
// used only by the tests as the oracle for TiltPhysics' recipe mode.
#pragma once

#include <stdint.h>

/// One axis set of the recipe's state, exactly the sample code's float variables.
typedef struct {
    float xoff, xaccel, xvelocity;
    float yoff, yaccel, yvelocity;
} recipe_oracle_state;

/// One accelerometer reading in the iOS convention (g) with its board time.
typedef struct {
    uint64_t time_us;
    float ax, ay, az;
} recipe_oracle_sample;

/// The state after one tick, and the tick's time.
typedef struct {
    uint64_t time_us;
    float xoff, yoff;
    uint32_t xoff_bits, yoff_bits;
} recipe_oracle_tick;

/// The accelerometer handler: runs on every sample.
void recipe_oracle_sample_apply(recipe_oracle_state *state, float ax, float ay, float az);

/// The 30 ms timer: integrates once.
void recipe_oracle_tick_apply(recipe_oracle_state *state);

/// Runs `count` samples (timestamps ascending) through the recipe on the tick
/// schedule t0 + k * tick_us (k >= 1), each tick after every sample at or before
/// it. Writes at most `capacity` ticks; returns how many ticks ran.
int recipe_oracle_run(const recipe_oracle_sample *samples, int count, uint64_t tick_us,
                      recipe_oracle_tick *ticks, int capacity);

/// Nonzero when this compiler evaluates float expressions in float
/// (FLT_EVAL_METHOD == 0), so the oracle's arithmetic really is single precision.
int recipe_oracle_float_eval_method(void);
