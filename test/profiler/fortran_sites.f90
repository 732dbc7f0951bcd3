! Test program for the arcoll profiler's Fortran call sites: MPI_BCAST and
! MPI_ALLREDUCE through MPICH's Fortran bindings (use mpi), each from its own
! line, the bcast line reached three times (a loop) and also from a subroutine.
! run_case.sh (mode fortran) greps the "site:" marker comments for the lines
! the trace must name. Exits with status 1 on a wrong result.
program fortran_sites
  use mpi
  implicit none
  integer :: ierr, rank, nranks, i, v, s

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  do i = 1, 3
    v = -1
    if (rank == 0) v = 40 + i
    call MPI_BCAST(v, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr) ! site: bcast
    if (v /= 40 + i) call fail('bcast')
  end do
  call MPI_ALLREDUCE(rank, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr) ! site: allreduce
  if (s /= nranks * (nranks - 1) / 2) call fail('allreduce')
  call other_bcast(rank)
  call MPI_FINALIZE(ierr)
contains
  subroutine other_bcast(rank)
    integer, intent(in) :: rank
    integer :: w
    w = rank
    call MPI_BCAST(w, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr) ! site: sub
    if (w /= 0) call fail('bcast in subroutine')
  end subroutine other_bcast
  subroutine fail(what)
    character(*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAIL ', what
    call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
  end subroutine fail
end program fortran_sites
