#!/usr/bin/env bash
# ragtui in CI: the steps both docs/ci/github-actions.yml and docs/ci/gitlab-ci.yml call, one
# per job step, so the two recipes cannot drift apart (tests/cli/test_ci_recipe.py runs them
# against ragtui's fake server).
#
#   ragtui-ci.sh shard I N   run shard I of N of the plan into $DIR/shard-I.db (+ its JUnit)
#   ragtui-ci.sh merge       merge every $DIR/shard-*.db into $DIR/merged.db
#   ragtui-ci.sh compare     compare $BASELINE's last run with the merged run: JUnit, Markdown
#                            (the pull-request comment) and the HTML report; or, without a
#                            baseline, the HTML report alone. Its status is kept for `gate`.
#   ragtui-ci.sh gate        exit with the comparison's status (1: a regression)
#
# Environment: RAGTUI_CI_RUN_ID (required for shard: the same in every shard job, e.g.
# gh-$GITHUB_RUN_ID or gl-$CI_PIPELINE_ID), RAGTUI_CI_ARGS (more `ragtui run` options, e.g.
# "--repeat 3 -s outage"), RAGTUI_CI_DIR (default ragtui-ci), RAGTUI_CI_BASELINE (default
# $RAGTUI_CI_DIR/baseline.db: the merged.db of the last run on the main branch), RAGTUI (the
# command, default ragtui).
set -euo pipefail

DIR="${RAGTUI_CI_DIR:-ragtui-ci}"
BASELINE="${RAGTUI_CI_BASELINE:-$DIR/baseline.db}"
read -r -a RAGTUI_CMD <<< "${RAGTUI:-ragtui}"
read -r -a RUN_ARGS <<< "${RAGTUI_CI_ARGS:-}"
mkdir -p "$DIR"

step="${1:-}"
case "$step" in
shard)
    index="${2:?usage: ragtui-ci.sh shard I N}"
    count="${3:?usage: ragtui-ci.sh shard I N}"
    : "${RAGTUI_CI_RUN_ID:?set RAGTUI_CI_RUN_ID, the same in every shard job}"
    status=0
    "${RAGTUI_CMD[@]}" run --shard "$index/$count" --run-id "$RAGTUI_CI_RUN_ID" --db "$DIR/shard-$index.db" \
        --junit "$DIR/junit-shard-$index.xml" "${RUN_ARGS[@]}" || status=$?
    # 1 is the shard's own gate (a dialogue under the threshold): the merged comparison decides.
    # 2 is an error (bad input, an unreachable bot): the job fails.
    if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
        exit "$status"
    fi
    ;;
merge)
    shopt -s nullglob
    shards=("$DIR"/shard-*.db)
    if [ "${#shards[@]}" -eq 0 ]; then
        echo "no shard databases in $DIR" >&2
        exit 2
    fi
    rm -f "$DIR/merged.db" "$DIR/merged.db-wal" "$DIR/merged.db-shm"
    "${RAGTUI_CMD[@]}" merge "${shards[@]}" --db "$DIR/merged.db"
    ;;
compare)
    status=0
    if [ -s "$BASELINE" ]; then  # curl --fail may leave an empty file when there is none
        "${RAGTUI_CMD[@]}" compare "$BASELINE:last" "$DIR/merged.db:last" --junit "$DIR/junit.xml" \
            --markdown "$DIR/compare.md" --html "$DIR/report.html" || status=$?
    else
        echo "no baseline at $BASELINE: reporting the run alone (keep $DIR/merged.db as the next baseline)"
        "${RAGTUI_CMD[@]}" report "$DIR/merged.db:last" --html "$DIR/report.html" || status=$?
        printf '**ragtui**: no baseline run to compare with yet; this run becomes the baseline.\n' > "$DIR/compare.md"
    fi
    echo "$status" > "$DIR/compare-status"
    if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
        exit "$status"
    fi
    ;;
gate)
    status="$(cat "$DIR/compare-status" 2>/dev/null || echo 2)"
    if [ "$status" -ne 0 ]; then
        echo "ragtui: the comparison exited $status (see $DIR/compare.md and $DIR/report.html)" >&2
    fi
    exit "$status"
    ;;
*)
    echo "usage: ragtui-ci.sh shard I N | merge | compare | gate" >&2
    exit 2
    ;;
esac
