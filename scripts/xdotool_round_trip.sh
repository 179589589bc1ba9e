#!/usr/bin/env bash
# Drive the real window with keystrokes only, as a person would, on an X display:
#   1. copy a reply with a read, Ctrl+V, Ctrl+Return: the results are on the X clipboard;
#   2. a reply with two writes: in the review dialog approve one (Alt+Y), go to the next
#      file (Alt+Down), reject it with a typed reason (Alt+R), Ctrl+Return: one written,
#      one rejected with that reason, both results on the clipboard;
#   3. the same reply pasted again: write-1 is a repeat (not run again, the file untouched,
#      the status says so); write-2, rejected before, is asked again with that rejection
#      in the status; approved this time (Alt+Y), it is written;
#   4. Ctrl+Alt+Z names the newest batch (write-2's) and, after Alt+Y, undoes it;
#   5. the clipboard watch, switched on from the Settings menu by keys;
#   6. the primer copied with the watch on: nothing runs, the clipboard keeps the primer.
# With --storm, 3,000 files are created and deleted in the workspace while it runs, and
# the window must survive it and still answer.
#
#   scripts/xdotool_round_trip.sh [--storm] [SHOT_DIR]
#
# Needs xdotool and xclip; when DISPLAY is unset it starts its own Xvfb on a free display
# (and openbox, if installed). LLM_OPERATOR=/path/to/llm-operator picks the command (else
# the repository's .venv, else llm-operator on PATH). The app keeps running until the
# checks are done, because the X clipboard is served by the app that set it. The window's
# status messages are read from LLM_OPERATOR_STATUS_LOG (see gui/status_log.py).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
storm=0
if [ "${1:-}" = "--storm" ]; then storm=1; shift; fi
shots="${1:-}"
screen=1280x800x24
. "$here/scripts/xdotool_setup.sh"

ws="$work/workspace"
mkdir -p "$ws/src"
printf 'alpha\nbeta\n' > "$ws/notes.txt"
printf 'def main():\n    return "hi"\n' > "$ws/src/app.py"
export LLM_OPERATOR_CONFIG_DIR="$work/config" LLM_OPERATOR_STATE_DIR="$work/state"
export LLM_OPERATOR_STATUS_LOG="$work/status.log"

"$app" gui --workspace "$ws" >"$work/app.log" 2>&1 &
app_pid=$!
pids+=($app_pid)
wid="$(find_window 'LLM Operator - workspace')"
[ -n "$wid" ] || fail "the window did not appear"
sleep 1
xdotool windowactivate --sync "$wid" 2>/dev/null || xdotool windowfocus --sync "$wid"

if [ "$storm" = 1 ]; then
    # Files appear and vanish in the workspace the whole time, as a build or a checkout does.
    (
        mkdir -p "$ws/build"
        rounds=0
        while [ "$rounds" = 0 ] || [ ! -f "$work/storm-stop" ]; do
            for n in $(seq 3000); do : > "$ws/build/f$n.o"; done
            rm -f "$ws/build/"*.o
            rounds=$((rounds + 1))
        done
        echo "$rounds" > "$work/storm-done"
    ) &
    pids+=($!)
fi

b64() { printf '%s' "$1" | base64 -w0; }
copy_reply() { printf '%s' "$1" | xclip -selection clipboard; sleep 0.3; }
clipboard() { timeout 5 xclip -o -selection clipboard 2>/dev/null || true; }
# Results, not the reply just copied (which names the same ids): the text must be results.
is_results() { local text; text="$(clipboard)"; [[ "$text" == OPERATOR_RESULT* ]] && grep -q "$1" <<<"$text"; }
wait_clipboard() { for _ in $(seq 200); do is_results "$1" && return 0; sleep 0.1; done; return 1; }
alive() { kill -0 "$app_pid" 2>/dev/null || fail "the app exited ($(wait "$app_pid"; echo "status $?"))"; }

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
wait_clipboard '^id: read-1$' || fail "no result for read-1 on the clipboard"
got="$(clipboard)"
echo "--- clipboard after the read:"; echo "$got"
echo "$got" | grep -q '^OPERATOR_RESULT$' || fail "no OPERATOR_RESULT on the clipboard"
echo "$got" | grep -q '^ok: true$' || fail "the read failed"
readable_read() {  # the read's details in the readable form: exactly the file's two lines
    local second="${2:-beta}"
    [ "$(printf '%s\n' "$1" | tr -d '\r' | grep -A3 -m1 '^details_lines: 2$')" = \
      "$(printf 'details_lines: 2\n| alpha\n| %s\nEND_OPERATOR_RESULT' "$second")" ]
}
readable_read "$got" || fail "the read returned other content"
shot main-window-after-read
alive

# 2. Two writes: approve the first, reject the second with a reason, all by keys.
writes_reply="Now the changes.
OPERATOR_CMD
version: 1
id: write-1
action: fs.write
path: notes.txt
content_b64: $(b64 $'alpha\ngamma\n')
END_OPERATOR_CMD
OPERATOR_CMD
version: 1
id: write-2
action: fs.write
path: src/app.py
content_b64: $(b64 $'def main():\n    return "bye"\n')
END_OPERATOR_CMD
"
copy_reply "$writes_reply"
xdotool windowactivate --sync "$wid" 2>/dev/null || xdotool windowfocus --sync "$wid"
xdotool key --clearmodifiers ctrl+v
sleep 0.5
xdotool key --clearmodifiers ctrl+Return
dialog="$(find_window 'confirm 2 command')"
[ -n "$dialog" ] || fail "no review dialog"
sleep 0.5
xdotool windowactivate --sync "$dialog" 2>/dev/null || xdotool windowfocus --sync "$dialog"
xdotool key --clearmodifiers alt+y
sleep 0.2
xdotool key --clearmodifiers alt+Down
sleep 0.2
xdotool key --clearmodifiers alt+r
sleep 0.2
xdotool type --delay 30 "keep the greeting"
sleep 0.3
shot review-dialog
xdotool key --clearmodifiers ctrl+Return
wait_clipboard '^id: write-2$' || fail "no results for the writes on the clipboard"
got="$(clipboard)"
echo "--- clipboard after the writes:"; echo "$got"
echo "$got" | grep -A1 '^id: write-1$' | grep -q '^ok: true$' || fail "write-1 was not approved"
echo "$got" | grep -A2 '^id: write-2$' | grep -q 'ERR_REJECTED_BY_USER.*keep the greeting' \
    || fail "write-2 was not rejected with the typed reason"
[ "$(cat "$ws/notes.txt")" = "$(printf 'alpha\ngamma')" ] || fail "notes.txt was not written"
grep -q '"hi"' "$ws/src/app.py" || fail "the rejected write changed src/app.py"
shot main-window-after-write
alive

# 3. The same reply again: write-1 is a repeat, not run again; write-2, rejected before,
#    is asked again with its rejection shown, and approved this time.
said() { grep -F -- "$1" "$work/status.log" >/dev/null 2>&1; }
wait_said() { for _ in $(seq 100); do said "$1" && return 0; sleep 0.1; done; return 1; }
notes_before="$(stat -c '%y %i' "$ws/notes.txt")"
xdotool windowactivate --sync "$wid" 2>/dev/null || xdotool windowfocus --sync "$wid"
copy_reply "$writes_reply"
xdotool key --clearmodifiers ctrl+v
sleep 0.5
xdotool key --clearmodifiers ctrl+Return
dialog="$(find_window 'confirm 1 command')"
[ -n "$dialog" ] || fail "write-2 was not asked again"
wait_said "Asking again: write-2 was rejected before at " \
    || fail "the status did not show write-2's earlier rejection"
said "(keep the greeting)." || fail "the status did not show the earlier reason"
sleep 0.5
xdotool windowactivate --sync "$dialog" 2>/dev/null || xdotool windowfocus --sync "$dialog"
xdotool key --clearmodifiers alt+y
sleep 0.3
shot review-asked-again
xdotool key --clearmodifiers ctrl+Return
for _ in $(seq 100); do grep -q '"bye"' "$ws/src/app.py" && break; sleep 0.1; done
grep -q '"bye"' "$ws/src/app.py" || fail "write-2, approved when asked again, was not written"
wait_said "Ran 1 command: 1 ok, 0 failed, 0 rejected; 1 repeated, not run again; 1 asked again" \
    || fail "the status did not count the repeat and the command asked again"
got="$(clipboard)"
echo "--- clipboard after the same reply again:"; echo "$got"
echo "$got" | grep -A3 '^id: write-1$' | grep -q '\[repeat: ' || fail "write-1 was not a repeat"
echo "$got" | grep -A1 '^id: write-2$' | grep -q '^ok: true$' || fail "write-2 did not run"
[ "$(cat "$ws/notes.txt")" = "$(printf 'alpha\ngamma')" ] || fail "notes.txt changed"
[ "$(stat -c '%y %i' "$ws/notes.txt")" = "$notes_before" ] || fail "write-1 ran again"
shot main-window-after-repeat
alive

# 4. Ctrl+Alt+Z: the question names the newest batch (write-2 only); Alt+Y undoes it.
xdotool windowactivate --sync "$wid" 2>/dev/null || xdotool windowfocus --sync "$wid"
xdotool key --clearmodifiers ctrl+alt+z
question="$(find_window 'Undo newest batch')"
[ -n "$question" ] || fail "Ctrl+Alt+Z asked nothing"
sleep 0.3
shot undo-question
xdotool key --clearmodifiers alt+y
for _ in $(seq 50); do grep -q '"hi"' "$ws/src/app.py" && break; sleep 0.1; done
grep -q '"hi"' "$ws/src/app.py" || fail "the undo did not restore src/app.py"
[ "$(cat "$ws/notes.txt")" = "$(printf 'alpha\ngamma')" ] || fail "the undo went past its batch"
wait_said "Undo notice copied to the clipboard" || fail "the undo notice was not copied at once"
clipboard | grep -q '^id: undo-' || fail "no undo notice on the clipboard"
alive

# 5. Clipboard watch, switched on from the Settings menu by keys: copying a reply is enough.
xdotool windowactivate --sync "$wid" 2>/dev/null || xdotool windowfocus --sync "$wid"
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
wait_clipboard '^id: read-2$' || fail "the copied reply was not picked up"
got="$(clipboard)"
echo "--- clipboard after copying a reply with the watch on:"; echo "$got"
readable_read "$got" gamma || fail "the picked-up read returned other content"
grep -q '"clipboard_watch": true' "$work/config/settings.json" || fail "the setting was not saved"
wait_said "Copied reply run. Ran 1 command: 1 ok" || fail "the status did not tell of the copied reply"
alive

# 6. The primer copied from elsewhere (a note, another chat) with the watch on: nothing runs,
#    the status says why, and the primer stays on the clipboard.
"$app" primer > "$work/primer.txt"
xclip -selection clipboard < "$work/primer.txt"
wait_said "Copied text not run: it is the LLM primer, the app's own text." \
    || fail "the primer copied with the watch on was not recognised"
shot primer-not-run
clipboard | cmp -s - "$work/primer.txt" || fail "the clipboard no longer holds the primer"
[ ! -e "$ws/notes" ] || fail "the primer's examples ran"
alive

if [ "$storm" = 1 ]; then
    touch "$work/storm-stop"
    for _ in $(seq 600); do [ -s "$work/storm-done" ] && break; sleep 0.1; done
    [ -s "$work/storm-done" ] || fail "the file storm did not finish"
    sleep 0.5
    alive
    echo "PASS: round trip driven by keystrokes while 3,000 files were created and deleted" \
        "$(cat "$work/storm-done") time(s)"
else
    echo "PASS: read, review (approve, reject with reason), repeat, asked again, undo," \
        "clipboard watch by keystrokes and the primer copied with the watch on"
fi
