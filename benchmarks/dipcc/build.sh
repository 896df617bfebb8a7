#!/usr/bin/env bash
# Builds pydipcc, Meta's C++ Diplomacy engine (the one behind Cicero), without
# torch, for benchmarks/diplomacy_bench.py's optional dipcc column.
#
#   benchmarks/dipcc/build.sh DIPCC_DIR [PYTHON]
#
# DIPCC_DIR: the dipcc/ folder of facebookresearch/diplomacy_cicero (a checkout
# or `git archive HEAD dipcc`).  PYTHON: the interpreter the benchmark runs
# with (default .venv/bin/python); pybind11 is installed into .bench/pybind11,
# and the module goes to .bench/dipcc/.  Needs g++ (C++17) and glog's headers
# (Debian: libgoogle-glog-dev).  Torch is left out: the files that encode
# positions for the model are not compiled, and bindings.cc (here) replaces
# dipcc's pybind.cc.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
src="$(cd "${1:?usage: build.sh DIPCC_DIR [PYTHON]}" && pwd)/dipcc"
python="${2:-$root/.venv/bin/python}"
out="$root/.bench/dipcc"
"$python" -m pip install --quiet --disable-pip-version-check --target "$root/.bench/pybind11" 'pybind11>=2.10'
mkdir -p "$out"
cp "$here/bindings.cc" "$src/pybind/bindings_no_torch.cc"
sources=()
for f in "$src"/cc/*.cc "$src"/pybind/*.cc; do
    case "$(basename "$f")" in
        # the model's encoders (torch), and pybind.cc, which binds them
        data_fields.cc|encoding_*.cc|orders_encoder.cc|thread_pool.cc|cfrstats.cc|pybind.cc|py_cfrstats.cc) ;;
        *) sources+=("$f") ;;
    esac
done
suffix="$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
include="$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
echo "compiling ${#sources[@]} files of dipcc into $out/pydipcc$suffix"
g++ -O3 -std=c++17 -shared -fPIC -fvisibility=hidden -DNDEBUG \
    -I"$include" -I"$root/.bench/pybind11/pybind11/include" \
    "${sources[@]}" -lglog -lpthread -o "$out/pydipcc$suffix"
echo "built: PYTHONPATH=$out $python -c 'import pydipcc'"
