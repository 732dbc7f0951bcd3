# Late-rank orders at P = 256 (SMPI flat cluster, coll_loop through libarcoll, every element of
# every call checked against coll_loop's own formulas; arcoll_loop_smpi_test in
# coll_loop_tests.cmake).  Eight ranks (16 + 32 i) late before each of 40 calls, root 4, so the
# late ranks sit at positions 12 + 32 i of the rotated order: inner nodes of both the binary tree
# (contiguous subtrees) and the binomial tree.
#
# bcast, 32 KiB, the default path (adapt/LATENESS.md "Lateness"): the first exchange charges the
# eight, each swaps with a leaf of its own subtree (rank 16 with 19, ... 240 with 243:
# adapt/order.c), the tolerant-tree trial runs, and a later call still carries that order.
#
# gather, 32 KiB, ARCOLL_LATE_ORDER=on, 5 ms late (at 1 ms the eight hide behind the root's link,
# one tree level of 32 KiB being 1 ms here): the one exchange of a collective whose data go toward
# the root (adapt/lateness.h) finds the eight, and round 0 of the online selection measures the
# binomial tree with that order before it decides.
#
# scatter, 1 KiB blocks, ARCOLL_LATE_ORDER=on (at 32 KiB the root's 255 sends hide a late rank
# and none is found): the eight are charged, binomial is measured with them on leaves, and every
# rank checks its whole block.
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.late_order.bcast.eight_late.np256 256 ${_loop}
    EXPECT
      "lateness exchange 1 \\(calls 0\\.\\.1\\) applied after call 2: .root 4 .* -> 8 late, changed"
      "bcast call 3[0-9] root 4 .* adaptive order: 4 5 .* 15 19 17 18 16 20 .* 239 243 241 242 240 244 .* 3$"
      "RESULT coll=bcast .* errors=0"
    ARGS -c bcast -m 32768 -n 40 -s eight_late -r 4)
  arcoll_loop_smpi_test(adapt.smpi.late_order.gather.eight_late.np256 256 ${_loop}
    ENV ARCOLL_LATE_ORDER=on
    EXPECT
      "lateness exchange 1 \\(calls 0\\.\\.1\\) applied after call 4: .root 4 .* -> 8 late, changed"
      "online: gather P=256 .* round 0 measured binomial/0="
      "RESULT coll=gather .* errors=0"
    ARGS -c gather -m 32768 -n 40 -s eight_late -r 4 -d 0.005)
  arcoll_loop_smpi_test(adapt.smpi.late_order.scatter.eight_late.np256 256 ${_loop}
    ENV ARCOLL_LATE_ORDER=on
    EXPECT "lateness exchange 1 \\(calls 0\\.\\.1\\) applied after call 2: .root 4 .* -> 8 late, changed"
      "online: scatter P=256 .* round 0 measured binomial/0="
      "RESULT coll=scatter .* errors=0"
    ARGS -c scatter -m 1024 -n 40 -s eight_late -r 4)
endif()
