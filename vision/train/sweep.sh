#!/bin/bash
# The recipe sweep that chose the shipped model's training recipe (docs/vision-model.md, "How the recipe
# was chosen"). Run once on a lent GPU machine with 16 cores -- never needed to reproduce the model: each
# recipe gets the step count the 25-minute CPU budget allows it, so the GPU only makes the comparison fast.
# Needs the randomised styles drawn first (python -m vision.train.dataset --random-styles 48 ..., fonts);
# writes models, logs and tuning-split figures (vision.train.compare) to $OUT (default vision/train/cache/sw).
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
OUT=${OUT:-vision/train/cache/sw}
mkdir -p "$OUT"
t0=$(date +%s)
python3 -m vision.train.dataset --per-label 500 --random-styles 48 --random-per-label 60 --workers 16 \
    --keep-styles > "$OUT/render.log" 2>&1 || { cat "$OUT/render.log"; exit 1; }
echo "render $(( $(date +%s) - t0 )) s"
run() {
    name=$1; shift
    python3 -m vision.train.train --device cuda --threads 1 --seed 0 --out "$OUT/$name.onnx" "$@" > "$OUT/$name.log" 2>&1
    echo "$name done $(( $(date +%s) - t0 )) s"
}
# steps: what 25 CPU minutes give each recipe on the 2-core machine (~240 ms/step plain, ~370 with episodes)
run A --steps 5600 --episode-weight 0 &
run B --steps 3800 --episode-weight 1 &
run E --steps 5600 --episode-weight 0 --random-styles 24 &
run D --steps 3800 --episode-weight 1 --random-styles 24 &
wait
for m in A B E D; do
    [ -f "$OUT/$m.onnx" ] && python3 -m vision.train.compare "$OUT/$m.onnx" --per-label 20 --json "$OUT/cmp_$m.json" \
        > "$OUT/cmp_$m.log" 2>&1 &
done
wait
cat "$OUT"/cmp_*.log | grep -v "^vision"
echo "total $(( $(date +%s) - t0 )) s"
