# Sourced by tools/adapt-bench.sh and tools/adapt-recovery.sh: the two SimGrid
# platforms of the adaptive layer's loops and what every one of their smpirun
# calls shares.  Needs ROOT (the repository) set by the caller.
#   bench_platform_args flat|tree  prints smpirun's -platform / -hostfile
#                                  arguments (flat: 10 Gb/s cluster; tree: the
#                                  oversubscribed two-level tree of
#                                  tools/coll-bench.sh); other names: nothing,
#                                  status 1
#   BENCH_SMPI_ARGS                the quiet logs and --cfg=smpi/test:0 (SMPI
#                                  otherwise injects simulated time into every
#                                  MPI_Test*: tools/adapt-bench.sh says why)
# and exports ARCOLL_MODEL=tools/platforms/cluster256.model.json unless set.
BENCH_PLATFORMS_DIR=$ROOT/tools/platforms/bench
bench_platform_args() {
  case "$1" in
    flat) echo "-platform $BENCH_PLATFORMS_DIR/flat1024.xml -hostfile $BENCH_PLATFORMS_DIR/flat1024.hostfile" ;;
    tree) echo "-platform $BENCH_PLATFORMS_DIR/tree1024.xml -hostfile $BENCH_PLATFORMS_DIR/tree1024.smpi-hosts" ;;
    *) return 1 ;;
  esac
}
BENCH_SMPI_ARGS=(--log=root.thres:critical --log=smpi_config.thres:warning --cfg=smpi/test:0)
if [ -z "${ARCOLL_MODEL:-}" ] && [ -f "$ROOT/tools/platforms/cluster256.model.json" ]; then
  export ARCOLL_MODEL=$ROOT/tools/platforms/cluster256.model.json
fi
