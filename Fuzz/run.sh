#!/bin/sh
# Runs one fuzz target for a while (see `make fuzz`):
#   Fuzz/run.sh TARGET SECONDS [--quiet]
# TARGET is query or reader: .build-fuzz/TARGET-fuzzer, its dictionary
# Fuzz/TARGET.dict, seeds in .build-fuzz/seeds/TARGET, and the inputs it
# finds kept in .build-fuzz/corpus/TARGET for the next run. A crash, a leak, a
# time-out (30 s for one input) or running out of memory (2 GiB) fails, with
# the input saved as .build-fuzz/crashes/TARGET-*. --quiet keeps libFuzzer's
# progress in .build-fuzz/TARGET.log and prints only the last status line.
set -u
target=$1
seconds=$2
quiet=${3:-}
dir=.build-fuzz
mkdir -p "$dir/corpus/$target" "$dir/crashes"
log=$dir/$target.log
# Inputs up to 64 KiB for the reader: enough for a start tag over the reader's
# limit of 1,024 attributes, for stanzas that span its 4 KiB pieces, and for
# the resynchronisation after damage in a long stanza.
case $target in
    reader) max_len=65536 ;;
    *) max_len=4096 ;;
esac
set -- "$dir/$target-fuzzer" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len="$max_len" \
    -dict="Fuzz/$target.dict" -artifact_prefix="$dir/crashes/$target-" -print_final_stats=1 \
    "$dir/corpus/$target" "$dir/seeds/$target"
export LSAN_OPTIONS="suppressions=Fuzz/lsan.supp:print_suppressions=0"
# Swift's own crash handler would race AddressSanitizer's report. A smaller
# quarantine for freed memory keeps the resident size well under the limit.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
echo "fuzz $target for $seconds s"
if [ "$quiet" = --quiet ]; then
    "$@" >"$log" 2>&1
    status=$?
else
    # tee hides the fuzzer's status: pass it on through a file.
    { "$@" 2>&1; echo $? >"$dir/$target.status"; } | tee "$log"
    status=$(cat "$dir/$target.status")
fi
grep -E '^#[0-9]+[[:space:]]+(DONE|pulse)' "$log" | tail -n 1
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log"
if [ "$status" != 0 ]; then
    echo "fuzz $target FAILED; the end of $log:" >&2
    tail -n 60 "$log" >&2
    exit 1
fi
