#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs an RKNPU2 model through Rockchip's own runtime (librknnrt, armhf) on the PC under qemu-arm, with
# rknnop's user-space /dev/rknpu (board/rknpu2, preloaded) and custom-op plugins. Docs:
# docs/rknpu2-emulation.md.
#
#   RKNNOP_RKNPU2_RUNTIME=<dir> scripts/rknpu2-run.sh [--soc RK3588|RK3566_RK3568|RK3562|RK3576] \
#       --plugin librkcst_X.so [--plugin ...] MODEL.rknn -i 0=a.npy [-i 1=b.npy] -o 0=o0.npy [-o 1=o1.npy] \
#       [--record DIR]
#   RKNNOP_RKNPU2_RUNTIME=<dir> scripts/rknpu2-run.sh [--soc SOC] --app APP --plugin librkcst_X.so MODEL.rknn
#
# <dir> holds armhf/librknnrt.so and include/ (rknn_api.h, rknn_custom_op.h). Inputs are float32 .npy
# in the layout the model's input attribute gives (NHWC for 4-D images); outputs float32 .npy
# (want_float). --record DIR: every call of each op's compute writes DIR/<op_type>-<n>.<call>.in<k>.npy
# and .out<k>.npy. --soc (default RK3588) selects the hardware version the stand-in answers.
# --app APP runs an armhf application of your own in the runner's place, as "APP MODEL PLUGIN...",
# with the same stand-in and identity (examples/rknpu2_app).
# The stand-in: RKNNOP_RKNPU2_STANDIN, else <build>/board/rknpu2/armhf/librknnop_rknpu.so (build =
# RKNNOP_BUILD_DIR or build/native). Passed on to the run: RKNN_LOG_LEVEL, RKNNOP_RKNPU_LOG, RKNNOP_PROFILE, RKNNOP_THREADS,
# RKNNOP_RKNPU_SEED, RKNNOP_RKNPU_HW_VERSION. RKNNOP_RKNPU2_TRACE=1 prints the qemu command.
# RKNNOP_RECORD=DIR (and RKNNOP_RECORD_MAX): the plugins record their own compute calls as on a board
# (docs/rknpu2-deploy.md §6) into a folder of the run, copied to DIR afterwards (never over a file).
# Run as root, the runtime runs as nobody (setpriv, uid/gid 65534, no capabilities): librknnrt run as
# root without a device creates /dev/dri nodes. Exit status: the runner's (0, 1 a failed runtime call,
# named on stderr, 2 usage), or 77 with the reason when the runtime, qemu-arm, the cross compiler, the
# stand-in or setpriv is absent. Everything temporary is removed on exit.
# Installed (cmake/rknnopInstall.cmake) as bin/rknnop-rknpu2-run: the runner's sources from
# share/rknnop/board/{rknpu2,runner}, the stand-in from lib/rknnop/rknpu2/armhf (installed_layout below).
set -euo pipefail
installed_layout=
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -n $installed_layout ]]; then
  read -r board_rel standin_rel <<<"$installed_layout"
  board=$(cd "$here/$board_rel" && pwd)
  standin_default=$here/$standin_rel/armhf/librknnop_rknpu.so
  me=rknnop-rknpu2-run shown=rknnop-rknpu2-run
else
  root=$(cd "$here/.." && pwd)
  board=$root/board
  standin_default=${RKNNOP_BUILD_DIR:-$root/build/native}/board/rknpu2/armhf/librknnop_rknpu.so
  me=rknpu2-run.sh shown=scripts/rknpu2-run.sh
fi
skip() { echo "$me: skipped: $*" >&2; exit 77; }
die() { echo "$me: $*" >&2; exit 2; }
usage() { sed -n '7,10p' "${BASH_SOURCE[0]}" | sed "s/^# \{0,1\}//; s#scripts/rknpu2-run.sh#$shown#" >&2; exit 2; }
absolute() { [[ $1 == /* ]] && echo "$1" || echo "$PWD/$1"; }

soc=RK3588
plugins=() inputs=() outputs=() model= record= app=
while [[ $# -gt 0 ]]; do
  case $1 in
    --soc) [[ $# -ge 2 ]] || usage; soc=$2; shift 2 ;;
    --plugin) [[ $# -ge 2 ]] || usage; plugins+=("$(absolute "$2")"); shift 2 ;;
    --record) [[ $# -ge 2 ]] || usage; record=$(absolute "$2"); shift 2 ;;
    --app) [[ $# -ge 2 ]] || usage; app=$(absolute "$2"); shift 2 ;;
    -i|-o)
      [[ $# -ge 2 && $2 =~ ^[0-9]+=.+ ]] || die "$1 takes INDEX=FILE.npy, got '${2:-}'"
      entry="${2%%=*}=$(absolute "${2#*=}")"
      if [[ $1 == -i ]]; then inputs+=("$entry"); else outputs+=("$entry"); fi
      shift 2 ;;
    -h|--help) usage ;;
    -*) die "unknown option $1" ;;
    *) [[ -z $model ]] || die "more than one model ($model, $1)"; model=$(absolute "$1"); shift ;;
  esac
done
[[ -n $model ]] || usage
case $soc in
  RK3588|RK3566_RK3568|RK3562|RK3576) ;;
  *) die "--soc $soc: expected RK3588, RK3566_RK3568, RK3562 or RK3576" ;;
esac
[[ -f $model ]] || die "$model: no such model"
for entry in "${inputs[@]}"; do [[ -f ${entry#*=} ]] || die "${entry#*=}: no such input"; done
for plugin in "${plugins[@]}"; do [[ -f $plugin ]] || die "$plugin: no such plugin"; done

runtime=${RKNNOP_RKNPU2_RUNTIME:-}
[[ -n $runtime ]] || skip "set RKNNOP_RKNPU2_RUNTIME to a folder holding armhf/librknnrt.so and include/"
[[ -f $runtime/armhf/librknnrt.so ]] || skip "RKNNOP_RKNPU2_RUNTIME=$runtime has no armhf/librknnrt.so"
[[ -f $runtime/include/rknn_api.h && -f $runtime/include/rknn_custom_op.h ]] ||
  skip "RKNNOP_RKNPU2_RUNTIME=$runtime has no include/rknn_api.h and include/rknn_custom_op.h"
cc=arm-linux-gnueabihf-gcc
command -v "$cc" >/dev/null || skip "$cc not found (scripts/install-deps.sh installs the cross compilers)"
command -v qemu-arm >/dev/null || skip "qemu-arm not found (qemu-user)"
sysroot=/usr/arm-linux-gnueabihf
[[ -d $sysroot/lib ]] || skip "$sysroot/lib not found (the cross compiler's target libraries)"
standin=${RKNNOP_RKNPU2_STANDIN:-$standin_default}
[[ -f $standin ]] || skip "no /dev/rknpu stand-in at $standin (build target rknnop_rknpu_board, install rknnop with the armhf cross compiler present, or set RKNNOP_RKNPU2_STANDIN)"
as_user=()
if [[ $(id -u) == 0 ]]; then
  command -v setpriv >/dev/null || skip "running as root needs setpriv (util-linux) to run the runtime as nobody"
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rknnop-rknpu2-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/lib" "$work/plugins" "$work/in" "$work/out" "$work/record" "$work/run" "$work/plugin-record"
plugin_record=${RKNNOP_RECORD:-}
[[ -z $plugin_record ]] || plugin_record=$(absolute "$plugin_record")
if [[ -n $app ]]; then  # an application of the user's (armhf), run as "APP MODEL PLUGIN..." instead of the runner
  [[ -f $app ]] || die "$app: no such application"
  [[ ${#inputs[@]} -eq 0 && ${#outputs[@]} -eq 0 && -z $record ]] || die "--app takes no -i, -o or --record"
  cp "$app" "$work/rknpu2_run"
else
  "$cc" -std=c11 -O1 -Wall -Wextra -Werror -I"$runtime/include" -I"$board/runner" -o "$work/rknpu2_run" \
    "$board/rknpu2/rknpu2_run.c" "$board/runner/npy.c" -L"$runtime/armhf" -lrknnrt -ldl
fi
cp "$runtime/armhf/librknnrt.so" "$standin" "$work/lib/"
cp "$model" "$work/in/model.rknn"
args=()
[[ -n $app ]] && args+=("$work/in/model.rknn")
for plugin in "${plugins[@]}"; do
  name=$(basename "$plugin")
  [[ ! -e $work/plugins/$name ]] || die "two plugins named $name"
  cp "$plugin" "$work/plugins/$name"
  [[ -n $app ]] && args+=("$work/plugins/$name") || args+=(--plugin "$work/plugins/$name")
done
[[ -n $app ]] || args+=("$work/in/model.rknn")
for entry in "${inputs[@]}"; do
  cp "${entry#*=}" "$work/in/input${entry%%=*}.npy"
  args+=(-i "${entry%%=*}=$work/in/input${entry%%=*}.npy")
done
for entry in "${outputs[@]}"; do args+=(-o "${entry%%=*}=$work/out/output${entry%%=*}.npy"); done
[[ -n $record ]] && args+=(--record "$work/record")
find "$work" -type d -exec chmod 755 {} +
find "$work" -type f -exec chmod 644 {} +
chmod 755 "$work/rknpu2_run"
# What the runtime writes belongs to the identity it runs as.
[[ ${#as_user[@]} -eq 0 ]] || chown 65534:65534 "$work/out" "$work/record" "$work/run" "$work/plugin-record"

env_args=(-E "LD_LIBRARY_PATH=$work/lib" -E "LD_PRELOAD=$work/lib/$(basename "$standin")" -E "RKNNOP_RKNPU_SOC=$soc"
          -E "TMPDIR=$work/run")
for name in RKNN_LOG_LEVEL RKNNOP_RKNPU_LOG RKNNOP_RKNPU_SEED RKNNOP_RKNPU_HW_VERSION RKNNOP_PROFILE RKNNOP_THREADS \
            RKNNOP_RECORD_MAX; do
  [[ -n ${!name:-} ]] && env_args+=(-E "$name=${!name}")
done
[[ -z $plugin_record ]] || env_args+=(-E "RKNNOP_RECORD=$work/plugin-record")
command=("${as_user[@]}" qemu-arm -L "$sysroot" "${env_args[@]}" "$work/rknpu2_run" "${args[@]}")
[[ ${RKNNOP_RKNPU2_TRACE:-0} == 1 ]] && echo "$me: (cd $work/run && ${command[*]})" >&2
status=0
(cd "$work/run" && exec "${command[@]}") || status=$?

for entry in "${outputs[@]}"; do
  produced=$work/out/output${entry%%=*}.npy
  if [[ -f $produced && ! -L $produced ]]; then  # never a link the runtime planted
    cp -P -- "$produced" "${entry#*=}"
  elif [[ $status == 0 ]]; then
    echo "$me: the run wrote no output ${entry%%=*}" >&2
    status=1
  fi
done
if [[ -n $plugin_record ]]; then  # the plugins' own record (RKNNOP_RECORD), never over an existing file
  # Regular files only, never a link the (unprivileged) runtime planted: this script may run as root.
  mkdir -p "$plugin_record"
  while IFS= read -r -d '' file; do
    name=$(basename "$file")
    if [[ -e $plugin_record/$name || -L $plugin_record/$name ]]; then
      echo "$me: RKNNOP_RECORD: $plugin_record/$name exists: not overwritten" >&2
      [[ $status != 0 ]] || status=1
    else
      cp -P -- "$file" "$plugin_record/"
    fi
  done < <(find "$work/plugin-record" -maxdepth 1 -type f -print0)
fi
if [[ -n $record ]]; then
  mkdir -p "$record"
  find "$work/record" -maxdepth 1 -type f -name '*.npy' -exec cp {} "$record/" \;
fi
exit $status
