#!/usr/bin/env bash
# Builds the TDT programs (written from the reference's sample flow tables,
# S46-S49) against the staged install exactly as the samples' CMakeLists do:
# -O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -Wall -Werror, <P>/include plus
# the program root, and <P>/lib64/libacl_tdt_channel.so (or
# libacl_tdt_queue.so) + <P>/lib64/libascendcl.so by absolute path; runs
# them and checks the documented lines. Also checks the header languages:
# acl_tdt.h is C++ only (a C compile must fail), acl_tdt_queue.h is C too.
# usage: install_programs_test.sh STAGE PROGRAMS_DIR WORK
set -uo pipefail
STAGE="${1:?}"
SRC="${2:?}"
WORK="${3:?}"
command -v g++ >/dev/null 2>&1 || { echo "SKIP: no g++"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
P="$STAGE"
fail=0
build() {  # name library
  if ! g++ -O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -Wall -Werror -I"$P/include" -I"$SRC" "$SRC/$1.cpp" \
      -o "$1" "$P/lib64/lib$2.so" "$P/lib64/libascendcl.so"; then
    echo "FAIL - $1 does not build against the install"
    fail=1
    return 1
  fi
}
run_expect() {  # name pattern...
  local name="$1"
  shift
  if ! LD_LIBRARY_PATH="$P/lib64" ./"$name" > "$name.out" 2>&1; then
    echo "FAIL - $name exited non-zero"; cat "$name.out"; fail=1; return
  fi
  for pat in "$@"; do
    grep -qE -- "$pat" "$name.out" || { echo "FAIL - $name: no line matching '$pat'"; cat "$name.out"; fail=1; }
  done
  echo "ok - $name"
}
build simple_channel acl_tdt_channel && run_expect simple_channel \
  '^\[INFO\]  Dataset size: 1$' \
  '^\[INFO\]  Tensor type=0, data type=0, bytes=16, dims=\(1, 4\), firstValue=1\.000$' \
  '^\[INFO\]  Channel size after send: 1$' '^\[INFO\]  Channel size after receive: 0$' \
  'simple channel sample run successfully'
build channel_capacity acl_tdt_channel && run_expect channel_capacity \
  '^\[INFO\]  Slice info: num=0 id=0, dataset name=""$' \
  '^\[INFO\]  Channel size after send #1: 1$' '^\[INFO\]  Channel size after send #2: 2$' \
  '^\[INFO\]  Send #3 on a full channel returned 207014$' 'channel capacity sample run successfully'
build simple_queue acl_tdt_queue && run_expect simple_queue \
  '^\[INFO\]  QueueAttr name=simple_queue, depth=4$' '^\[INFO\]  Created queue id=[0-9]+$' \
  'simple queue sample run successfully'
build queue_route acl_tdt_queue && run_expect queue_route \
  '^\[INFO\]  Queried route count: 1$' '^\[INFO\]  Route: src=0 dst=1 status=1$' \
  'queue route sample run successfully'

# Header languages.
printf '#include "acl/acl_tdt.h"\n' > tdt_c.c
if gcc -std=c99 -fsyntax-only -I"$P/include" tdt_c.c 2>/dev/null; then
  echo "FAIL - acl/acl_tdt.h compiled as C; the CANN header is C++ only"; fail=1
else
  echo "ok - acl/acl_tdt.h is C++ only"
fi
printf '#include "acl/acl_tdt_queue.h"\nint main(void) { acltdtQueueAttr* a = acltdtCreateQueueAttr(); return a == 0; }\n' > q_c.c
if gcc -std=c99 -Wall -Wextra -Werror -Wstrict-prototypes -I"$P/include" q_c.c -o q_c "$P/lib64/libacl_tdt_queue.so" \
    "$P/lib64/libascendcl.so"; then
  echo "ok - acl/acl_tdt_queue.h builds as C99"
else
  echo "FAIL - acl/acl_tdt_queue.h does not build as C99"; fail=1
fi
# The channel library names only the channel family, the queue library only the queue family.
nm -D --defined-only "$P/lib64/libacl_tdt_channel.so" | grep -q ' acltdtCreateQueue$' && { echo "FAIL - queue function in the channel library"; fail=1; }
nm -D --defined-only "$P/lib64/libacl_tdt_queue.so" | grep -q ' acltdtSendTensor$' && { echo "FAIL - channel function in the queue library"; fail=1; }
exit $fail
