#!/bin/sh
# Runs one fuzz target (see `make fuzz`, `make fuzz-quick`):
#   Fuzz/run.sh TARGET SECONDS [--quiet]     random fuzzing for SECONDS
#   Fuzz/run.sh TARGET mutants=N [--quiet]   every seed and N fixed mutants of
#                                            them, each run once: the same
#                                            inputs and verdict on every run and
#                                            machine (what make test and CI do)
# TARGET is query, reader or log: .build-fuzz/TARGET-fuzzer, its dictionary
# Fuzz/TARGET.dict, seeds in .build-fuzz/seeds/TARGET. Random fuzzing keeps
# the inputs it finds in .build-fuzz/corpus/TARGET for the next run. The fixed
# mutants are written by Fuzz/mutate.py (libFuzzer's own exploration from a
# fixed seed is not reproducible from one run to the next). First, each input
# in Fuzz/regressions/TARGET is replayed. A crash, a leak, a broken check, a
# time-out (30 s for one input) or running out of memory (2 GiB) fails, with
# the input saved as .build-fuzz/crashes/TARGET-*. --quiet keeps libFuzzer's
# progress in .build-fuzz/TARGET.log and prints only the last status line.
set -u
target=$1
amount=$2
quiet=${3:-}
dir=.build-fuzz
mkdir -p "$dir/corpus/$target" "$dir/crashes"
log=$dir/$target.log
# Inputs up to 64 KiB for the reader: enough for a start tag over the reader's
# limit of 1,024 attributes, for stanzas that span its 4 KiB pieces, and for
# the resynchronisation after damage in a long stanza; 128 KiB for logs (a
# real log's sessions, their stream headers and the records after them).
case $target in
    reader) max_len=65536 ;;
    log) max_len=131072 ;;
    *) max_len=4096 ;;
esac
export LSAN_OPTIONS="suppressions=Fuzz/lsan.supp:print_suppressions=0"
# Swift's own crash handler would race AddressSanitizer's report. A smaller
# quarantine for freed memory keeps the resident size well under the limit.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
limits="-timeout=30 -rss_limit_mb=2048 -max_len=$max_len"

# The regressions: each input once.
regressions=$(find "Fuzz/regressions/$target" -type f 2>/dev/null | sort)
if [ -n "$regressions" ]; then
    # shellcheck disable=SC2086
    if ! "$dir/$target-fuzzer" $limits $regressions >"$dir/$target-regressions.log" 2>&1; then
        echo "fuzz $target: a regression input FAILED; the end of $dir/$target-regressions.log:" >&2
        tail -n 60 "$dir/$target-regressions.log" >&2
        exit 1
    fi
    echo "fuzz $target: $(echo "$regressions" | wc -l) regression inputs replayed"
fi

case $amount in
    mutants=*)
        # Each seed and each mutant once, as the regressions are replayed, in
        # batches (a command line has a limit); the first failing input is kept.
        mutants=$dir/mutants/$target
        rm -rf "$mutants"
        python3 Fuzz/mutate.py "$dir/seeds/$target" "$mutants" "${amount#mutants=}" "$max_len" "Fuzz/$target.dict" || exit 1
        echo "fuzz $target: $(ls "$dir/seeds/$target" | wc -l) seeds and ${amount#mutants=} fixed mutants"
        : >"$log"
        status=0
        for batch_dir in "$dir/seeds/$target" "$mutants"; do
            find "$batch_dir" -type f -print0 | sort -z | xargs -0 -n 500 sh -c '"$0" "$@" >>"'"$log"'" 2>&1 || exit 255' \
                "$dir/$target-fuzzer" $limits || { status=1; break; }
        done
        if [ "$status" != 0 ]; then
            failed=$(grep -E '^Running: ' "$log" | tail -n 1 | sed 's/^Running: //')
            [ -n "$failed" ] && cp "$failed" "$dir/crashes/$target-$(basename "$failed")"
            echo "fuzz $target FAILED on $failed (kept in $dir/crashes/); the end of $log:" >&2
            tail -n 60 "$log" >&2
            exit 1
        fi
        echo "fuzz $target: $(grep -c '^Executed ' "$log") inputs run, none failed"
        exit 0 ;;
    *)
        corpus=$dir/corpus/$target
        echo "fuzz $target for $amount s"
        set -- "$dir/$target-fuzzer" -max_total_time="$amount" $limits ;;
esac
set -- "$@" -dict="Fuzz/$target.dict" -artifact_prefix="$dir/crashes/$target-" -print_final_stats=1 "$corpus" "$dir/seeds/$target"
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
