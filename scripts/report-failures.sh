#!/usr/bin/env bash
# make test's last words when it fails (CI keeps only the end of its output, and each stage's output is printed whole
# when the stage ends, so the first failure may be far above): what failed, from what the stages left in the folder
# given (test-artefacts) — the black-box tests' reports (failures.txt, written by blackbox/conftest.py), the Swift
# tests' failed tests and the lines each stage printed before make stopped it (make-test.log, the stages' output).
# Exits non-zero: it runs only after a failure.
set -uo pipefail
artefacts="${1:-test-artefacts}"
log="$artefacts/make-test.log"
echo
echo "=============================== what failed ==============================="
if [[ -s "$artefacts/failures.txt" ]]; then
	head -n 400 "$artefacts/failures.txt"
fi
if [[ -s "$log" ]]; then
	if grep -qE '^✘ Test .* (failed|recorded an issue)|^Test Case .* failed' "$log"; then
		echo "=== the Swift tests"
		grep -E '^✘ |^Test Case .* failed|: error: ' "$log" | head -n 80
	fi
	# Where make stopped a stage: the stage's last lines before make's own "***" line.
	grep -nE '^make(\[[0-9]+\])?: \*\*\* \[' "$log" | while IFS=: read -r number _; do
		echo "=== the end of the stage make stopped (line $number of $log)"
		sed -n "$((number > 25 ? number - 25 : 1)),${number}p" "$log"
	done
fi
exit 1
