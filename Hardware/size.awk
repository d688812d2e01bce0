# Reads `avr-size -A` output; prints flash and static RAM use against the budgets
# and, with enforce=1, fails when one is exceeded.
$1 == ".text" || $1 == ".data" { flash += $2 }
$1 == ".data" || $1 == ".bss" || $1 == ".noinit" { ram += $2 }
END {
    printf "flash: %d bytes of %d budget (%.1f%% of 32256 usable)\n", flash, flash_budget, 100 * flash / 32256
    printf "static RAM: %d bytes of %d budget (%.1f%% of 2048)\n", ram, ram_budget, 100 * ram / 2048
    if (enforce && (flash > flash_budget || ram > ram_budget)) {
        print "over budget: shrink the art or the buffers (Hardware/Makefile FLASH_BUDGET / RAM_BUDGET)" > "/dev/stderr"
        exit 1
    }
    if (enforce) print "budgets: ok"
}
