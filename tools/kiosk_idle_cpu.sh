#!/usr/bin/env bash
# Idle CPU of the kiosk in a real X window (Xvfb): the attract loop and a static menu.
# Usage (from the project root, the project importable by the `royalnine` on PATH):
#   [WINDOW=10] tools/kiosk_idle_cpu.sh [SECONDS] [CASE]   (CASE: attract, title, operator)
# Prints one line per case: "<case>: N.N% of one core over S s". Re-run it after shim
# changes (drawing only what changed) and copy the figures into docs/kiosk.md.
# Xvfb has one monitor, so the kiosk runs its one-monitor fallback (vertical layout, one
# fullscreen window, 1280x1024 at scale 2); two monitors draw the same pixels in two windows.
set -u
secs=${1:-20}
window=${WINDOW:-10}  # also print the CPU of each window of this many seconds
command -v Xvfb >/dev/null || { echo "Xvfb missing: apt-get install -y xvfb"; exit 2; }
measure() {  # name, kiosk args...
    local name=$1; shift
    local home disp xpid gpid a b
    home=$(mktemp -d); disp=:$((100 + RANDOM % 100))
    Xvfb "$disp" -screen 0 1280x1024x24 >/dev/null 2>&1 & xpid=$!
    sleep 1
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
    if [ -z "$a" ] || [ -z "$b" ]; then echo "$name: the kiosk did not stay up: $(tail -n 2 "$home/out")"; return 1; fi
    python3 -c "print('$name: ' + str(round(100*($b-$a)/$(getconf CLK_TCK)/$secs, 1)) + '% of one core over $secs s')"
    [ -n "$parts" ] && echo "  in ${window}-s windows:$parts"
    echo "  RSS at the end: ${rss:-?} (load: $(cut -d' ' -f1-3 /proc/loadavg))"
    rm -rf "$home"
}
case ${2:-all} in
    attract|all) measure "attract loop" --start attract ;;&
    title|all) measure "static menu (kiosk title)" --start title --attract-after 3600 ;;&
    operator|all) measure "operator menu" --start operator --attract-after 3600 ;;
esac
