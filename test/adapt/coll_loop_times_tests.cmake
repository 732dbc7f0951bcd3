# coll_loop -e (test/apps/coll_loop_times.h): every rank's entry and exit time of every call, the
# input of tools/adapt_recovery.py's root_lead.  SMPI flat cluster, 16 ranks, a 4 KiB bcast under
# the moving late rank through libarcoll, 30 calls: the lines parsed back, each rank's calls in
# order, no rank out of a call before the root entered it (SMPI's one clock), the root's lead
# per window computed (test/tools/coll_loop_times_check.py); every element checked by coll_loop.
if(ARCOLL_HAVE_SMPI)
  add_test(NAME adapt.smpi.coll_loop.times.np16
    COMMAND bash -c "set -e; out=$(mktemp); trap 'rm -f $out' EXIT
      ARCOLL_MODEL=${CMAKE_SOURCE_DIR}/tools/platforms/cluster256.model.json smpirun -np 16 \
        -platform ${CMAKE_SOURCE_DIR}/tools/platforms/bench/flat1024.xml \
        -hostfile ${CMAKE_SOURCE_DIR}/tools/platforms/bench/flat1024.hostfile \
        --cfg=smpi/privatize-libs:${CMAKE_BINARY_DIR}/smpi/adapt/libarcoll.so --cfg=smpi/test:0 \
        --log=root.thres:warning ${CMAKE_BINARY_DIR}/smpi/test/apps/coll_loop_arcoll \
        -c bcast -m 4096 -n 30 -s moving -e > $out
      grep -q 'RESULT coll=bcast .* errors=0' $out
      ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/test/tools/coll_loop_times_check.py $out 16 30 0 bcast")
  set_tests_properties(adapt.smpi.coll_loop.times.np16 PROPERTIES LABELS smpi TIMEOUT 300
    RESOURCE_LOCK mpi PASS_REGULAR_EXPRESSION "consistent; root leads")
endif()
