#!/usr/bin/env bash
# Drive the real window with keystrokes only, as a person would: copy a reply, Ctrl+V,
# Ctrl+Return, read the results off the X clipboard; then the same with a write, approved
# with Ctrl+Return in the confirmation dialog. Exits non-zero when any step fails.
#
#   scripts/xdotool_round_trip.sh [SHOT_DIR]
#
# Needs: xdotool, xclip, and Xvfb when no DISPLAY is set (it then starts its own on :99).
# Run by hand; CI does not run it. LLM_OPERATOR=/path/to/llm-operator picks the command. The app keeps running until the checks are done, because
# the X clipboard is served by the app that set it.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
# The command to test: $LLM_OPERATOR, else llm-operator on PATH, else the dev venv's.
app="${LLM_OPERATOR:-$(command -v llm-operator || echo "$here/../venv/bin/llm-operator")}"
[ -x "$app" ] || { echo "FAIL: no llm-operator to run ($app)" >&2; exit 2; }
shots="${1:-}"
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
shot() { [ -n "$shots" ] && import -window root "$shots/$1.png" && echo "screenshot: $shots/$1.png"; true; }

if [ -z "${DISPLAY:-}" ]; then
    Xvfb :99 -screen 0 1280x800x24 >/dev/null 2>&1 &
    pids+=($!)
    export DISPLAY=:99
    sleep 1
fi

ws="$work/workspace"
mkdir -p "$ws/src"
printf 'alpha\nbeta\n' > "$ws/notes.txt"
printf 'def main():\n    return "hi"\n' > "$ws/src/app.py"
export LLM_OPERATOR_CONFIG_DIR="$work/config" LLM_OPERATOR_STATE_DIR="$work/state"

"$app" gui --workspace "$ws" >"$work/app.log" 2>&1 &
pids+=($!)
wid="$(xdotool search --sync --onlyvisible --name 'LLM Operator - workspace' | head -1)"
[ -n "$wid" ] || fail "the window did not appear"
sleep 1
xdotool windowfocus --sync "$wid"

copy_reply() { printf '%s' "$1" | xclip -selection clipboard; sleep 0.3; }
clipboard() { xclip -o -selection clipboard 2>/dev/null || true; }

# 1. A read: results are on the clipboard right after Ctrl+Return.
copy_reply "Let me look first.
OPERATOR_CMD
version: 1
id: read-1
action: fs.read
path: notes.txt
END_OPERATOR_CMD
"
xdotool key --clearmodifiers ctrl+v
sleep 0.5
xdotool key --clearmodifiers ctrl+Return
for _ in $(seq 50); do clipboard | grep -q '^id: read-1$' && break; sleep 0.1; done
got="$(clipboard)"
echo "--- clipboard after the read:"; echo "$got"
echo "$got" | grep -q '^OPERATOR_RESULT$' || fail "no OPERATOR_RESULT on the clipboard"
echo "$got" | grep -q '^id: read-1$' || fail "the result is not for read-1"
echo "$got" | grep -q '^ok: true$' || fail "the read failed"
echo "$got" | grep -q "^details_b64: $(printf 'alpha\nbeta\n' | base64 -w0)$" \
    || fail "the read returned other content"
shot main-window-after-read

# 2. A write: one dialog, approved with Ctrl+Return.
copy_reply "Now the change.
OPERATOR_CMD
version: 1
id: write-1
action: fs.write
path: notes.txt
content_b64: $(printf 'alpha\ngamma\n' | base64 -w0)
END_OPERATOR_CMD
"
xdotool windowfocus --sync "$wid"
xdotool key --clearmodifiers ctrl+v
sleep 0.5
xdotool key --clearmodifiers ctrl+Return
dialog="$(xdotool search --sync --onlyvisible --name 'confirm 1 command' | head -1)"
[ -n "$dialog" ] || fail "no confirmation dialog"
sleep 0.5
shot confirm-dialog
xdotool windowfocus --sync "$dialog"
xdotool key --clearmodifiers ctrl+Return
for _ in $(seq 50); do clipboard | grep -q '^id: write-1$' && break; sleep 0.1; done
got="$(clipboard)"
echo "--- clipboard after the write:"; echo "$got"
echo "$got" | grep -q '^id: write-1$' || fail "no result for write-1 on the clipboard"
echo "$got" | grep -q '^ok: true$' || fail "the write failed"
[ "$(cat "$ws/notes.txt")" = "$(printf 'alpha\ngamma')" ] || fail "notes.txt was not written"
echo "--- notes.txt now:"; cat "$ws/notes.txt"
shot main-window-after-write

# 3. Clipboard watch, switched on from the Settings menu by keys: copying a reply is enough.
xdotool windowfocus --sync "$wid"
xdotool key --clearmodifiers alt+s
sleep 0.5
xdotool key --clearmodifiers w
sleep 0.5
copy_reply "One more look.
OPERATOR_CMD
version: 1
id: read-2
action: fs.read
path: notes.txt
END_OPERATOR_CMD
"
for _ in $(seq 50); do clipboard | grep -q '^id: read-2$' && break; sleep 0.1; done
got="$(clipboard)"
echo "--- clipboard after copying a reply with the watch on:"; echo "$got"
echo "$got" | grep -q '^id: read-2$' || fail "the copied reply was not picked up"
echo "$got" | grep -q "^details_b64: $(printf 'alpha\ngamma\n' | base64 -w0)$" \
    || fail "the picked-up read returned other content"
grep -q '"clipboard_watch": true' "$work/config/settings.json" || fail "the setting was not saved"
echo "PASS: read, write and clipboard-watch round trips driven by keystrokes"
