# Sourced by the xdotool scripts: finds the app, makes a work folder removed at exit with
# every process started here, and starts Xvfb (and openbox) when DISPLAY is unset.
# Expects: here (the repository), shots (a folder for screenshots, or empty) and screen
# (the Xvfb screen, e.g. 1280x800x24). Defines: app, work, pids, fail, shot, find_window.

app="${LLM_OPERATOR:-}"
[ -n "$app" ] || { [ -x "$here/.venv/bin/llm-operator" ] && app="$here/.venv/bin/llm-operator"; }
[ -n "$app" ] || app="$(command -v llm-operator || true)"
[ -n "$app" ] && [ -x "$app" ] || { echo "FAIL: no llm-operator to run" >&2; exit 2; }
work="$(mktemp -d)"
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*" >&2
    [ -f "$work/app.log" ] && { echo "--- app log:" >&2; tail -20 "$work/app.log" >&2; }
    [ -f "$work/status.log" ] && { echo "--- status log:" >&2; tail -5 "$work/status.log" >&2; }
    exit 1
}
shot() { if [ -n "$shots" ]; then import -window root "$shots/$1.png" && echo "screenshot: $shots/$1.png"; fi; }
find_window() { timeout 20 xdotool search --sync --onlyvisible --name "$1" | head -1; }

if [ -z "${DISPLAY:-}" ]; then
    # -displayfd: the server picks a free display number and writes it to fd 3.
    Xvfb -displayfd 3 -screen 0 "$screen" 3>"$work/display" >/dev/null 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.05; done
    [ -s "$work/display" ] || fail "Xvfb did not start"
    export DISPLAY=":$(head -1 "$work/display")"
    if command -v openbox >/dev/null; then
        openbox >/dev/null 2>&1 &
        pids+=($!)
        sleep 0.5
    fi
fi
echo "display $DISPLAY"
