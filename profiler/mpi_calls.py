"""The one list of MPI functions the arcoll profiler intercepts.

gen_wrappers.py turns every entry into a PMPI wrapper (C). Prototypes follow
MPICH 4.0.2's mpi_proto.h and SimGrid's smpi.h (identical const-ness).

Entry fields:
  name    MPI function without the "MPI_" prefix.
  kind    "init" | "finalize" | "coll" | "icoll" | "pcoll" (persistent
          MPI_<Coll>_init, MPI-4) | "ncoll" / "incoll" / "pncoll"
          (neighbourhood collectives: blocking, nonblocking, persistent) |
          "start" | "request_free" | "pcontrol" | "abort" | "send" | "recv" | "irecv" |
          "sendrecv" | "wait".
  params  C parameter list. The token CNT stands for `int` in the classic form
          and `MPI_Count` in the large-count form; CNTV for `const int` /
          `const MPI_Count` (count arrays); DISP for `const int` / `const MPI_Aint`
          (displacement arrays).
  large   True: also generate the MPI-4 `_c` form (guarded by MPI_VERSION >= 4).
  op      (coll/icoll) the arcoll_coll_op enumerator.
  root    (coll/icoll) name of the root parameter, or None.
  bytes   (coll/icoll) C expression for the `bytes` field, evaluated after a
          successful call (see RECORDER_SEMANTICS.md "Recorder semantics", bytes per collective). Helpers:
          TS(dt) type size in bytes, NPEER(comm) size of the group this rank
          exchanges with (remote group for an intercommunicator), NLOCAL(comm),
          MYRANK(comm), INPLACE(p), ISROOT(root, comm), ROOTSIDE(root, comm)
          (this rank is the root of an intercomm collective: root == MPI_ROOT),
          SUMV(counts, dt, n), SUMW(counts, types, n).
  inplace (coll/icoll) buffer parameters compared with MPI_IN_PLACE.
  nbytes  (ncoll) C expression for the bytes sent to out-neighbour i_ (the
          bytes field is their sum); AINTV stands for `const MPI_Aint` in both
          forms (MPI_Neighbor_alltoallw's displacements).
  mpi4    True: the function exists only in MPI >= 4 (guarded by
          MPI_VERSION >= 4; SimGrid SMPI 3.32 declares MPI 3.1).
  dest, sbytes (send/sendrecv) destination parameter and bytes expression.
  pre, done (wait) C statement run before the call and the expression that is
          true when the call completed at least one request (a sync point).
"""

_ROOT_SEND = "sendcount*TS(sendtype)"

COLLECTIVES = [
    # name, op, params, root, bytes, inplace
    ("Barrier", "OP_BARRIER", "MPI_Comm comm", None, "0", []),
    ("Bcast", "OP_BCAST",
     "void *buffer, CNT count, MPI_Datatype datatype, int root, MPI_Comm comm",
     "root", "count*TS(datatype)", []),
    ("Reduce", "OP_REDUCE",
     "const void *sendbuf, void *recvbuf, CNT count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm",
     "root", "count*TS(datatype)", ["sendbuf"]),
    ("Allreduce", "OP_ALLREDUCE",
     "const void *sendbuf, void *recvbuf, CNT count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm",
     None, "count*TS(datatype)", ["sendbuf"]),
    ("Gather", "OP_GATHER",
     "const void *sendbuf, CNT sendcount, MPI_Datatype sendtype, void *recvbuf, CNT recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm",
     "root",
     "ROOTSIDE(root, comm) ? recvcount*TS(recvtype)*NPEER(comm) : "
     "(ISROOT(root, comm) && INPLACE(sendbuf)) ? recvcount*TS(recvtype) : sendcount*TS(sendtype)",
     ["sendbuf"]),
    ("Gatherv", "OP_GATHERV",
     "const void *sendbuf, CNT sendcount, MPI_Datatype sendtype, void *recvbuf, CNTV recvcounts[], DISP displs[], MPI_Datatype recvtype, int root, MPI_Comm comm",
     "root",
     "ROOTSIDE(root, comm) ? SUMV(recvcounts, recvtype, NPEER(comm)) : "
     "(ISROOT(root, comm) && INPLACE(sendbuf)) ? recvcounts[MYRANK(comm)]*TS(recvtype) : sendcount*TS(sendtype)",
     ["sendbuf"]),
    ("Scatter", "OP_SCATTER",
     "const void *sendbuf, CNT sendcount, MPI_Datatype sendtype, void *recvbuf, CNT recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm",
     "root",
     "ROOTSIDE(root, comm) ? sendcount*TS(sendtype)*NPEER(comm) : "
     "(ISROOT(root, comm) && INPLACE(recvbuf)) ? sendcount*TS(sendtype) : recvcount*TS(recvtype)",
     ["recvbuf"]),
    ("Scatterv", "OP_SCATTERV",
     "const void *sendbuf, CNTV sendcounts[], DISP displs[], MPI_Datatype sendtype, void *recvbuf, CNT recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm",
     "root",
     "ROOTSIDE(root, comm) ? SUMV(sendcounts, sendtype, NPEER(comm)) : "
     "(ISROOT(root, comm) && INPLACE(recvbuf)) ? sendcounts[MYRANK(comm)]*TS(sendtype) : recvcount*TS(recvtype)",
     ["recvbuf"]),
    ("Allgather", "OP_ALLGATHER",
     "const void *sendbuf, CNT sendcount, MPI_Datatype sendtype, void *recvbuf, CNT recvcount, MPI_Datatype recvtype, MPI_Comm comm",
     None, "INPLACE(sendbuf) ? recvcount*TS(recvtype) : sendcount*TS(sendtype)", ["sendbuf"]),
    ("Allgatherv", "OP_ALLGATHERV",
     "const void *sendbuf, CNT sendcount, MPI_Datatype sendtype, void *recvbuf, CNTV recvcounts[], DISP displs[], MPI_Datatype recvtype, MPI_Comm comm",
     None, "INPLACE(sendbuf) ? recvcounts[MYRANK(comm)]*TS(recvtype) : sendcount*TS(sendtype)", ["sendbuf"]),
    ("Alltoall", "OP_ALLTOALL",
     "const void *sendbuf, CNT sendcount, MPI_Datatype sendtype, void *recvbuf, CNT recvcount, MPI_Datatype recvtype, MPI_Comm comm",
     None,
     "INPLACE(sendbuf) ? recvcount*TS(recvtype)*NPEER(comm) : sendcount*TS(sendtype)*NPEER(comm)",
     ["sendbuf"]),
    ("Alltoallv", "OP_ALLTOALLV",
     "const void *sendbuf, CNTV sendcounts[], DISP sdispls[], MPI_Datatype sendtype, void *recvbuf, CNTV recvcounts[], DISP rdispls[], MPI_Datatype recvtype, MPI_Comm comm",
     None,
     "INPLACE(sendbuf) ? SUMV(recvcounts, recvtype, NPEER(comm)) : SUMV(sendcounts, sendtype, NPEER(comm))",
     ["sendbuf"]),
    ("Alltoallw", "OP_ALLTOALLW",
     "const void *sendbuf, CNTV sendcounts[], DISP sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, CNTV recvcounts[], DISP rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm",
     None,
     "INPLACE(sendbuf) ? SUMW(recvcounts, recvtypes, NPEER(comm)) : SUMW(sendcounts, sendtypes, NPEER(comm))",
     ["sendbuf"]),
    ("Reduce_scatter", "OP_REDUCE_SCATTER",
     "const void *sendbuf, void *recvbuf, CNTV recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm",
     None, "SUMV(recvcounts, datatype, NLOCAL(comm))", ["sendbuf"]),
    ("Reduce_scatter_block", "OP_REDUCE_SCATTER_BLOCK",
     "const void *sendbuf, void *recvbuf, CNT recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm",
     None, "recvcount*TS(datatype)*NLOCAL(comm)", ["sendbuf"]),
    ("Scan", "OP_SCAN",
     "const void *sendbuf, void *recvbuf, CNT count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm",
     None, "count*TS(datatype)", ["sendbuf"]),
    ("Exscan", "OP_EXSCAN",
     "const void *sendbuf, void *recvbuf, CNT count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm",
     None, "count*TS(datatype)", ["sendbuf"]),
]

NEIGHBOR_COLLECTIVES = [
    # name, op, params, bytes to out-neighbour i_
    ("Neighbor_allgather", "OP_NEIGHBOR_ALLGATHER",
     "const void *sendbuf, CNT sendcount, MPI_Datatype sendtype, void *recvbuf, CNT recvcount, MPI_Datatype recvtype, MPI_Comm comm",
     "sendcount*TS(sendtype)"),
    ("Neighbor_allgatherv", "OP_NEIGHBOR_ALLGATHERV",
     "const void *sendbuf, CNT sendcount, MPI_Datatype sendtype, void *recvbuf, CNTV recvcounts[], DISP displs[], MPI_Datatype recvtype, MPI_Comm comm",
     "sendcount*TS(sendtype)"),
    ("Neighbor_alltoall", "OP_NEIGHBOR_ALLTOALL",
     "const void *sendbuf, CNT sendcount, MPI_Datatype sendtype, void *recvbuf, CNT recvcount, MPI_Datatype recvtype, MPI_Comm comm",
     "sendcount*TS(sendtype)"),
    ("Neighbor_alltoallv", "OP_NEIGHBOR_ALLTOALLV",
     "const void *sendbuf, CNTV sendcounts[], DISP sdispls[], MPI_Datatype sendtype, void *recvbuf, CNTV recvcounts[], DISP rdispls[], MPI_Datatype recvtype, MPI_Comm comm",
     "sendcounts[i_]*TS(sendtype)"),
    ("Neighbor_alltoallw", "OP_NEIGHBOR_ALLTOALLW",
     "const void *sendbuf, CNTV sendcounts[], AINTV sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, CNTV recvcounts[], AINTV rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm",
     "sendcounts[i_]*TS(sendtypes[i_])"),
]

_SEND_PARAMS = "const void *buf, CNT count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm"
_ISEND_PARAMS = _SEND_PARAMS + ", MPI_Request *request"


def entries():
    """Every wrapper as a dict (see the module docstring)."""
    out = [
        dict(name="Init", kind="init", params="int *argc, char ***argv", large=False),
        dict(name="Init_thread", kind="init",
             params="int *argc, char ***argv, int required, int *provided", large=False),
        dict(name="Finalize", kind="finalize", params="void", large=False),
    ]
    for name, op, params, root, nbytes, inplace in COLLECTIVES:
        large = name != "Barrier"
        out.append(dict(name=name, kind="coll", params=params, large=large, op=op,
                        root=root, bytes=nbytes, inplace=inplace))
        out.append(dict(name="I" + name.lower()[0] + name[1:], kind="icoll",
                        params=params + ", MPI_Request *request", large=large, op=op,
                        root=root, bytes=nbytes, inplace=inplace))
    # persistent collectives (MPI-4): recorded at each MPI_Start / MPI_Startall
    for name, op, params, root, nbytes, inplace in COLLECTIVES:
        out.append(dict(name=name + "_init", kind="pcoll", mpi4=True, large=name != "Barrier",
                        params=params + ", MPI_Info info, MPI_Request *request", op=op,
                        root=root, bytes=nbytes, inplace=inplace))
    for name, op, params, nbytes in NEIGHBOR_COLLECTIVES:
        out.append(dict(name=name, kind="ncoll", params=params, large=True, op=op, nbytes=nbytes))
        out.append(dict(name="I" + name.lower()[0] + name[1:], kind="incoll", large=True, op=op,
                        params=params + ", MPI_Request *request", nbytes=nbytes))
        out.append(dict(name=name + "_init", kind="pncoll", mpi4=True, large=True, op=op,
                        params=params + ", MPI_Info info, MPI_Request *request", nbytes=nbytes))
    out.append(dict(name="Start", kind="start", params="MPI_Request *request", large=False))
    out.append(dict(name="Startall", kind="start", params="int count, MPI_Request requests[]",
                    large=False))
    out.append(dict(name="Request_free", kind="request_free", params="MPI_Request *request",
                    large=False))
    out.append(dict(name="Pcontrol", kind="pcontrol", params="const int level, ...", large=False))
    out.append(dict(name="Abort", kind="abort", params="MPI_Comm comm, int errorcode", large=False))
    # blocking: the call returns after the transfer (MPI_Bsend copies into the attached buffer).
    for n in ("Send", "Ssend", "Bsend", "Rsend"):
        out.append(dict(name=n, kind="send", params=_SEND_PARAMS, large=True,
                        dest="dest", sbytes="count*TS(datatype)", blocking=n != "Bsend"))
    for n in ("Isend", "Issend", "Ibsend", "Irsend"):
        out.append(dict(name=n, kind="send", params=_ISEND_PARAMS, large=True,
                        dest="dest", sbytes="count*TS(datatype)"))
    out.append(dict(name="Recv", kind="recv", large=True, rbytes="count*TS(datatype)",
                    params="void *buf, CNT count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status"))
    out.append(dict(name="Irecv", kind="irecv", large=True,
                    params="void *buf, CNT count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request"))
    out.append(dict(name="Sendrecv", kind="sendrecv", large=True, dest="dest",
                    sbytes="sendcount*TS(sendtype)", rbytes="recvcount*TS(recvtype)",
                    params="const void *sendbuf, CNT sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, CNT recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status"))
    out.append(dict(name="Sendrecv_replace", kind="sendrecv", large=True, dest="dest",
                    sbytes="count*TS(datatype)", rbytes="count*TS(datatype)",
                    params="void *buf, CNT count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status"))
    anyreq = ("int had = 0; if (reqs) for (int i = 0; i < count; i++) "
              "if (reqs[i] != MPI_REQUEST_NULL) { had = 1; break; }")
    waits = [
        ("Wait", "MPI_Request *request, MPI_Status *status",
         "int had = request && *request != MPI_REQUEST_NULL;", "had"),
        ("Waitall", "int count, MPI_Request reqs[], MPI_Status statuses[]", anyreq, "had"),
        ("Waitany", "int count, MPI_Request reqs[], int *indx, MPI_Status *status",
         "", "*indx != MPI_UNDEFINED"),
        ("Waitsome", "int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]",
         "", "*outcount != MPI_UNDEFINED && *outcount > 0"),
        ("Test", "MPI_Request *request, int *flag, MPI_Status *status",
         "int had = request && *request != MPI_REQUEST_NULL;", "had && *flag"),
        ("Testall", "int count, MPI_Request reqs[], int *flag, MPI_Status statuses[]", anyreq,
         "had && *flag"),
        ("Testany", "int count, MPI_Request reqs[], int *indx, int *flag, MPI_Status *status",
         "", "*flag && *indx != MPI_UNDEFINED"),
        ("Testsome", "int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]",
         "", "*outcount != MPI_UNDEFINED && *outcount > 0"),
    ]
    for n, params, pre, done in waits:
        out.append(dict(name=n, kind="wait", params=params, large=False, pre=pre, done=done))
    return out
