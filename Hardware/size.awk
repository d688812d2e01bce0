# Reads `avr-size -A` output; prints flash and static RAM use against the budgets
# and, with enforce=1, fails when one is exceeded.
$1 == ".text" || $1 == ".data" { flash += $2 }
$1 == ".data" || $1 == ".bss" || $1 == ".noinit" { ram += $2 }
END {
    printf "%s flash: %d bytes of %d budget (%.1f%% of %d usable)\n", board, flash, flash_budget, 100 * flash / flash_size, flash_size
    printf "%s static RAM: %d bytes of %d budget (%.1f%% of %d)\n", board, ram, ram_budget, 100 * ram / ram_size, ram_size
    if (enforce && (flash > flash_budget || ram > ram_budget)) {
        print "over budget: shrink the art or the buffers (Hardware/Makefile FLASH_BUDGET / RAM_BUDGET)" > "/dev/stderr"
        exit 1
    }
    if (enforce) print "budgets: ok"
}
