#!/usr/bin/env bash
# `make fuzz`: builds every libFuzzer target in Fuzz/Targets against the modules SwiftPM builds with coverage and
# AddressSanitizer, then runs each for FUZZ_SECONDS (default 60) on its corpus in Fuzz/corpus/<target>/, adding
# what it finds there. A crash stops with the reproducer in .build-fuzz/crashes/<target>/; turn it into a
# regression test (docs/reliability.md). Targets: FUZZ_TARGETS="multipart query" runs only those.
#
# SwiftPM cannot link an executable with -sanitize=fuzzer (its renamed `main` is undefined), so the script links
# each target itself: the target's file plus every object of the package's libraries.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-60}"
scratch=.build-fuzz
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)

# The modules the targets use (and, through them, everything they depend on).
for target in Multipart Diary Files Photos Importers Backup S3Answers MailFormat WeatherAnswers Book WebAuthn; do
    swift build --scratch-path "$scratch" "${flags[@]}" --target "$target"
done
bin="$(swift build --scratch-path "$scratch" "${flags[@]}" --show-bin-path)"

# SwiftPM leaves the object of a source file that was deleted or moved; linking it would pull in symbols that no
# longer exist. Drop every object of our own modules whose source is gone.
for module in Sources/*/; do
    module="$(basename "$module")"
    [ -d "$bin/$module.build" ] || continue
    while read -r object; do
        source="$(basename "$object" .o)"
        # SwiftPM's own source for a module with resources (Places: `Bundle.module`) is not in Sources/.
        [ "$source" = resource_bundle_accessor.swift ] && continue
        [ -n "$(find "Sources/$module" -name "$source" -print -quit)" ] || rm -f "$object"
    done < <(find "$bin/$module.build" -name '*.swift.o')
done

# Every object of the package's library targets: not executables, tests or benchmarks.
mapfile -t objects < <(find "$bin" -name '*.o' -path '*.build/*' \
    ! -path '*/saessak.build/*' ! -path '*Tests.build/*' ! -path '*-benchmark.build/*' ! -path '*PackageTests*' \
    ! -path '*/swift-mustache*' | sort)
libraries=($(pkg-config --libs vips pangocairo) -lsqlite3 -lm -lstdc++)
# The C modules the Swift modules import (SwiftPM passes these itself; swiftc alone needs them named).
modulemaps=()
while read -r map; do modulemaps+=(-Xcc "-fmodule-map-file=$map"); done < <(
    { find "$bin" -maxdepth 2 -name module.modulemap; find "$scratch/checkouts" -path '*/Sources/*' -name module.modulemap;
      find CModules -name module.modulemap; } | sort)

mkdir -p "$scratch/fuzzers" "$scratch/crashes"
targets="${FUZZ_TARGETS:-$(ls Fuzz/Targets | sed 's/\.swift$//' | tr '\n' ' ')}"
printf '%-10s %12s %10s %8s\n' target executions exec/s corpus > "$scratch/summary.txt"
for target in $targets; do
    fuzzer="$scratch/fuzzers/$target"
    swiftc -sanitize=fuzzer,address -parse-as-library -g -I "$bin/Modules" "${modulemaps[@]}" \
        $(pkg-config --cflags-only-I vips | sed 's/-I/-Xcc -I/g') \
        "Fuzz/Targets/$target.swift" "${objects[@]}" "${libraries[@]}" -o "$fuzzer" > "$scratch/$target.link.log" 2>&1 \
        || { cat "$scratch/$target.link.log" >&2; exit 1; }
    corpus="Fuzz/corpus/$target"
    mkdir -p "$corpus" "$scratch/crashes/$target"
    log="$scratch/$target.log"
    # Leaks are not looked for here (a trap or an overflow is what kills the server): Foundation's and SQLite's
    # caches count as leaks, after the first input and at exit. Memory bombs are findings: no input of at most 64 KB
    # may make one allocation of more than 512 MB or the process grow past 2 GB (AddressSanitizer's shadow included).
    ASAN_OPTIONS=detect_leaks=0 "$fuzzer" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=20 -print_final_stats=1 -detect_leaks=0 \
        -artifact_prefix="$scratch/crashes/$target/" "$corpus" 2>&1 | tee "$log" | grep -E '^#[0-9]+.*(NEW|pulse|DONE)|ERROR|SUMMARY' || true
    if grep -q 'ERROR: libFuzzer\|ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|Fatal error\|deadly signal' "$log"; then
        echo "fuzz: $target crashed; the input is in $scratch/crashes/$target/" >&2
        exit 1
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    printf '%-10s %12s %10s %8s\n' "$target" "$runs" "$speed" "$(ls "$corpus" | wc -l)" >> "$scratch/summary.txt"
done
cat "$scratch/summary.txt"
