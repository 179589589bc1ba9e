#!/usr/bin/env bash
# Review a batch of 30 writes in the real window by keystrokes only, and count the keys it
# takes to see every change once: after the reply is pasted and run (Ctrl+V, Ctrl+Return),
# Alt+V shows the page of all changes and Page Down goes through it until the review says
# "Seen 30 of 30 files" (the dialog's counts reach LLM_OPERATOR_STATUS_LOG); at most 5 keys.
# Then Ctrl+Return approves all and the 30 files must be on disk.
#
#   scripts/xdotool_batch_review.sh [SHOT_DIR]
#
# Needs xdotool and xclip; when DISPLAY is unset it starts its own Xvfb (1920x1080) on a
# free display (and openbox, if installed). LLM_OPERATOR=/path/to/llm-operator picks the
# command (else the repository's .venv, else llm-operator on PATH).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
shots="${1:-}"
most=5
screen=1920x1080x24
. "$here/scripts/xdotool_setup.sh"

ws="$work/workspace"
mkdir -p "$ws"
export LLM_OPERATOR_CONFIG_DIR="$work/config" LLM_OPERATOR_STATE_DIR="$work/state"
export LLM_OPERATOR_STATUS_LOG="$work/status.log"

"$app" gui --workspace "$ws" >"$work/app.log" 2>&1 &
app_pid=$!
pids+=($app_pid)
wid="$(find_window 'LLM Operator - workspace')"
[ -n "$wid" ] || fail "the window did not appear"
sleep 1
xdotool windowactivate --sync "$wid" 2>/dev/null || xdotool windowfocus --sync "$wid"

reply="Thirty smoke tests."
for n in $(seq -w 0 29); do
    body="$(printf 'def test_smoke_%s():\n    assert %s == %s\n' "$n" "$n" "$n" | base64 -w0)"
    reply+="
OPERATOR_CMD
version: 1
id: t$n
action: fs.write
path: tests/generated/test_smoke_$n.py
content_b64: $body
END_OPERATOR_CMD"
done
printf '%s\n' "$reply" | xclip -selection clipboard
sleep 0.3
xdotool key --clearmodifiers ctrl+v
sleep 0.5
xdotool key --clearmodifiers ctrl+Return
dialog="$(find_window 'confirm 30 commands')"
[ -n "$dialog" ] || fail "no review dialog"
sleep 0.5
xdotool windowactivate --sync "$dialog" 2>/dev/null || xdotool windowfocus --sync "$dialog"

seen_all() { grep -q "Seen 30 of 30 files" "$work/status.log" 2>/dev/null; }
settled() { sleep 0.4; }
keys=0
xdotool key --clearmodifiers alt+v
keys=$((keys + 1))
settled
shot batch-review-all-changes
while ! seen_all && [ "$keys" -lt 12 ]; do
    xdotool key --clearmodifiers Next
    keys=$((keys + 1))
    settled
done
seen_all || fail "30 changes not seen after $keys keys"
echo "every change of 30 seen after $keys key presses (Alt+V and $((keys - 1)) Page Down)"
[ "$keys" -le "$most" ] || fail "$keys key presses to see 30 changes; at most $most"
shot batch-review-seen
xdotool key --clearmodifiers ctrl+Return
for _ in $(seq 100); do [ -f "$ws/tests/generated/test_smoke_29.py" ] && break; sleep 0.1; done
written="$(find "$ws/tests/generated" -name 'test_smoke_*.py' | wc -l)"
[ "$written" = 30 ] || fail "$written of 30 files written"
grep -q 'assert 17 == 17' "$ws/tests/generated/test_smoke_17.py" || fail "wrong content"
kill -0 "$app_pid" 2>/dev/null || fail "the app exited"
echo "PASS: a 30-write batch reviewed with $keys keys to see every change, then approved"
