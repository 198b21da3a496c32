#!/usr/bin/env bash
# Idle CPU of the kiosk in a real X window (Xvfb): the attract loop and a static menu.
# Usage (from the project root, the project importable by the `royalnine` on PATH):
#   [WINDOW=10] [MONITORS=2] tools/kiosk_idle_cpu.sh [SECONDS] [CASE]
#   (CASE: attract, title, operator)
# Prints one line per case: "<case>: N.N% of one core over S s". Re-run it after shim
# changes (drawing only what changed) and copy the figures into docs/kiosk.md.
# MONITORS=1 (the default): Xvfb with one monitor, so the kiosk runs its one-monitor
# fallback (vertical layout, one fullscreen window, 1280x1024 at scale 2). MONITORS=2:
# Xorg's dummy driver with two 1280x1024 monitors of one X screen (tests/xservers.py
# sets it up; needs xserver-xorg-video-dummy and xrandr): a fullscreen window on each.
# The X server picks a free display number itself (-displayfd), never one in use.
set -u
secs=${1:-20}
window=${WINDOW:-10}  # also print the CPU of each window of this many seconds
monitors=${MONITORS:-1}
here=$(cd "$(dirname "$0")/.." && pwd)
command -v Xvfb >/dev/null || { echo "Xvfb missing: apt-get install -y xvfb"; exit 2; }
start_x() {  # sets disp and xpid (and xdir for MONITORS=2)
    local fifo
    xdir=""
    if [ "$monitors" = 2 ]; then
        # the server outlives this python: it prints the display, the pid and its folder
        read -r disp xpid xdir < <(cd "$here/tests" && python3 -c '
import xservers
s = xservers.start("two-monitors")
print(s.display, s.proc.pid, s.folder) if s else print(": 0 -")
')
        [ "$xpid" != 0 ] || { echo "the two-monitor X server did not start"; exit 2; }
        return
    fi
    fifo=$(mktemp -u); mkfifo "$fifo"
    Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$fifo" >/dev/null 2>&1 & xpid=$!
    disp=:$(head -n 1 "$fifo"); rm -f "$fifo"
}
measure() {  # name, kiosk args...
    local name=$1; shift
    local home disp xpid xdir gpid a b
    home=$(mktemp -d)
    start_x
    ( unset SDL_VIDEODRIVER; DISPLAY=$disp SDL_AUDIODRIVER=dummy \
      exec royalnine kiosk --home "$home" "$@" ) >"$home/out" 2>&1 & gpid=$!
    sleep 8
    ticks() { awk '{print $14+$15}' "/proc/$gpid/stat" 2>/dev/null; }
    a=$(ticks); t=$a; parts=""
    for _ in $(seq $((secs / window))); do  # the same run in windows of $window s
        sleep "$window"; u=$(ticks)
        [ -n "$u" ] && parts="$parts $(python3 -c "print(round(100*($u-$t)/$(getconf CLK_TCK)/$window, 1))")"
        t=$u
    done
    sleep $((secs % window)); b=$(ticks)
    rss=$(awk '/VmRSS/ {print $2/1024 " MB"}' "/proc/$gpid/status" 2>/dev/null)
    kill -TERM "$gpid" 2>/dev/null; wait "$gpid" 2>/dev/null; kill "$xpid" 2>/dev/null
    [ -n "$xdir" ] && [ "$xdir" != - ] && rm -rf "$xdir"
    if [ -z "$a" ] || [ -z "$b" ]; then echo "$name: the kiosk did not stay up: $(tail -n 2 "$home/out")"; return 1; fi
    python3 -c "print('$name: ' + str(round(100*($b-$a)/$(getconf CLK_TCK)/$secs, 1)) + '% of one core over $secs s')"
    [ -n "$parts" ] && echo "  in ${window}-s windows:$parts"
    echo "  RSS at the end: ${rss:-?} (load: $(cut -d' ' -f1-3 /proc/loadavg))"
    echo "  $(grep -m 1 -o 'two screens:.*\|one monitor found.*\|share one desktop.*' "$home/out")"
    rm -rf "$home"
}
case ${2:-all} in
    attract|all) measure "attract loop" --start attract ;;&
    title|all) measure "static menu (kiosk title)" --start title --attract-after 3600 ;;&
    operator|all) measure "operator menu" --start operator --attract-after 3600 ;;
esac
