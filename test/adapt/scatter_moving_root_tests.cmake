# Scatters whose root moves (coll_loop -R: root c mod P at call c), through test/apps/coll_loop
# under SMPI (arcoll_loop_smpi_test, coll_loop_tests.cmake) and MPICH.

# The binomial scatter sends its smallest subtree first once the root moved (collectives/gather.h
# ARCOLL_SCATTER_SMALLEST_FIRST, adapt/blocks.c), every element checked: forced, SMPI 13 and 64
# ranks (non-power-of-two subtrees; a root that moves by one), MPICH 3 ranks.
if(ARCOLL_HAVE_SMPI)
  foreach(np 13 64)
    arcoll_loop_smpi_test(adapt.smpi.scatter_binomial.rotating_root.np${np} ${np} ${_loop} NO_COMPUTE
      EXPECT "RESULT coll=scatter .* errors=0"
      ARGS -c scatter -m 4096 -n 20 -s noise -R ENV ARCOLL_SCATTER_ALGORITHM=binomial)
  endforeach()
endif()
arcoll_adapt_mpi_test(adapt.coll_loop.scatter_binomial.rotating_root.np3 3 PROGRAM coll_loop
  ARGS -c scatter -m 4096 -n 20 -s noise -R ENV ARCOLL_SCATTER_ALGORITHM=binomial)
set_tests_properties(adapt.coll_loop.scatter_binomial.rotating_root.np3 PROPERTIES
  PASS_REGULAR_EXPRESSION "RESULT coll=scatter .* errors=0")

# Round 0 measures linear right after binomial, whose next root left each call first: linear's
# eager blocks reached ranks still in binomial's calls (0.004 s a call summed over ranks, its max
# period 0.10 ms against 2.51 predicted) and it was kept; the confirmation after that transient
# (collectives/online_confirm.h arcoll_explorer_transient), its blocks synchronised, runs linear at
# its steady 0.15 s a call and keeps binomial: from call 16 every call under 0.07 s (0.046-0.063;
# largest subtree first they took 0.12, linear 0.15).  SMPI flat cluster, 64 ranks, 32 KiB,
# balanced, the host's CPU time left out, every element checked.
if(ARCOLL_HAVE_SMPI)
  arcoll_loop_smpi_test(adapt.smpi.scatter_moving_root_confirmed.np64 64 ${_loop} NO_COMPUTE
    EXPECT "online: scatter P=64 .* round 0 measured binomial/0=.* linear/0=.* -> linear/0, confirming it in the steady state against binomial"
      "online: scatter P=64 .* confirmation, last rank out: linear/0 span .* binomial/0 span .* -> binomial/0"
      "!CALL (1[6-9]|2[0-9]|3[0-9]) inside_sum=(0\\.(0[7-9]|[1-9])|[1-9])"
      "RESULT coll=scatter .* errors=0"
    ARGS -c scatter -m 32768 -n 40 -s balanced -R -p)
endif()
