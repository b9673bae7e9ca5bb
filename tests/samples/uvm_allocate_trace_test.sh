#!/usr/bin/env bash
# The managed-memory sample with a trace: `./run.sh --trace` against the
# staged install must write a Chrome trace whose events match what the
# program did (3 host faults, 3 device faults, the kernel, in order, with
# their sizes) and a picture with one stream lane and three allocation
# panels; then `msprof ./out/bin/uvm_allocate` profiles the installed,
# unmodified program.
#
# usage: uvm_allocate_trace_test.sh SAMPLE_SRC WORK STAGE CHECKER
# Exit 0 when every check passes, 1 otherwise, 77 when a tool is missing.
set -uo pipefail
SRC="${1:?}"
WORK="${2:?}"
STAGE="${3:?}"
CHECKER="${4:?}"
FAILS=0
ok() { echo "ok   - $*"; }
bad() { FAILS=$((FAILS + 1)); echo "FAIL - $*"; }

for tool in cmake g++; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
PY=""
for py in /usr/bin/python3 python3; do
  if "$py" -c "import numpy, matplotlib" >/dev/null 2>&1; then PY="$py"; break; fi
done
[ -n "$PY" ] || { echo "SKIP: no python3 with numpy and matplotlib"; exit 77; }

rm -rf "$WORK"
mkdir -p "$WORK"
cp -r "$SRC" "$WORK/sample"
rm -rf "$WORK/sample/build" "$WORK/sample/out" "$WORK/sample/input" "$WORK/sample/output"
cd "$WORK/sample" || exit 1
unset SIMNPU_PROFILE SOC_VERSION ASCENDC_CMAKE_DIR
if ASCEND_INSTALL_PATH="$STAGE" SAMPLE_BUILD_JOBS=2 ./run.sh --trace > "$WORK/run.log" 2>&1; then
  ok "run.sh --trace exits 0"
else
  bad "run.sh --trace failed:"; tail -30 "$WORK/run.log"
fi
grep -qF "[SUCCESS] result correct" "$WORK/run.log" && ok "result verified" || bad "no [SUCCESS] line"
TRACE="$(ls output/profile/PROF_*/mindstudio_profiler_output/msprof_*.json 2>/dev/null | head -n 1)"
[ -n "$TRACE" ] && ok "trace written: $TRACE" || bad "no trace under output/profile"
if [ -f output/uvm_trace.png ] && [ "$(head -c 8 output/uvm_trace.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; then
  ok "picture is a PNG"
else
  bad "no PNG picture at output/uvm_trace.png"
fi
if [ -n "$TRACE" ] && "$PY" "$CHECKER" "$TRACE" output/uvm_trace_lanes.json output/uvm_report.txt; then
  ok "trace events and picture lanes match the program"
else
  bad "trace/picture check failed"
fi

# msprof on the installed program, unmodified.
export LD_LIBRARY_PATH="$STAGE/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
rm -rf "$WORK/msprof_out"
if "$STAGE/tools/profiler/bin/msprof" --output="$WORK/msprof_out" --aic-metrics=PipeUtilization \
    ./out/bin/uvm_allocate > "$WORK/msprof.log" 2>&1; then
  ok "msprof ./out/bin/uvm_allocate exits 0"
else
  bad "msprof failed:"; tail -20 "$WORK/msprof.log"
fi
grep -qF "note: --aic-metrics is accepted and ignored" "$WORK/msprof.log" && ok "hardware option noted" \
  || bad "no note for --aic-metrics"
MTRACE="$(ls "$WORK"/msprof_out/PROF_*/mindstudio_profiler_output/msprof_*.json 2>/dev/null | head -n 1)"
if [ -n "$MTRACE" ] && grep -qF '"name":"add_kernel"' "$MTRACE"; then
  ok "msprof trace has the kernel"
else
  bad "msprof trace missing or without add_kernel"
fi
[ -n "$(ls "$WORK"/msprof_out/PROF_*/mindstudio_profiler_output/op_summary_*.csv 2>/dev/null)" ] \
  && ok "op summary written" || bad "no op_summary csv"
if "$STAGE/tools/profiler/bin/msprof" --mstx-domain-include=a --mstx-domain-exclude=b ./out/bin/uvm_allocate \
    > /dev/null 2>&1; then
  bad "include and exclude together must be refused"
else
  ok "include and exclude together are refused"
fi
echo "# $FAILS failed"
[ "$FAILS" -eq 0 ]
