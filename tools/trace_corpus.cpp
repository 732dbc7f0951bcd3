// arcoll-trace-corpus OUTDIR: writes a fixed corpus of corrupted arcoll
// traces, deterministically, from one valid trace it writes with the
// profiler's own writer (RecordWriter with small blocks, 4 ranks, PAPI
// counters, a communicator, collectives and CCS entries):
//
//   OUTDIR/valid.arctrace   the valid trace (every `arcoll` command reads it)
//   OUTDIR/<case>.arctrace  one corrupted trace per case
//   OUTDIR/cases.tsv        "<case>\t<text the reader's error must contain>"
//
// Kinds of cases: truncated at several offsets, flipped bytes at several
// offsets (header fields, block framing, record fields, the end record),
// huge or wrong counts with valid checksums (resealed: the reader's bounds
// checks must catch them, not the checksum), blocks lost, bytes appended,
// wrong versions, wrong magic. tools/trace-corpus-check.sh runs it through
// `arcoll summary`, `arcoll place` and `arcoll export --otf2`.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "trace_format.h"
#include "trace_writer.hpp"

namespace {

using arcoll::trace::checksum64;
constexpr uint32_t kRanks = 4;

std::string slurp(const std::string &p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// The valid trace: per rank a part file written by RecordWriter, then
// header + parts + RT_TRACE_END as the profiler's merge writes them.
std::string valid_trace(const std::string &dir) {
  std::string file;
  arcoll_trace_file_header h = arcoll::trace::make_file_header(kRanks, 1.7e9, 1u);
  file.append(reinterpret_cast<const char *>(&h), sizeof h);
  for (uint32_t r = 0; r < kRanks; ++r) {
    const std::string part = dir + "/valid.part" + std::to_string(r);
    arcoll::trace::RecordWriter w(256);  // small blocks: several per rank
    if (!w.open(part, r)) throw std::runtime_error("cannot write " + part + ": " + w.error());
    std::string host = "node0" + std::to_string(r + 1);
    arcoll_rec_rank_begin rb{int32_t(r), int32_t(1000 + r), uint32_t(host.size()), 0};
    w.record2(RT_RANK_BEGIN, &rb, sizeof rb, host.data(), uint32_t(host.size()));
    const char names[] = "perf::TASK-CLOCK";
    uint32_t n = 1;
    w.record2(RT_COUNTER_NAMES, &n, 4, names, sizeof names);
    uint64_t comm_id = (uint64_t(0) << 32) | 1;
    int32_t members[kRanks] = {3, 2, 1, 0};
    unsigned char comm[16 + sizeof members] = {0};
    uint32_t size = kRanks;
    std::memcpy(comm, &comm_id, 8);
    std::memcpy(comm + 8, &size, 4);
    std::memcpy(comm + 16, members, sizeof members);
    w.record(RT_COMM, comm, sizeof comm);
    for (uint32_t id = 0; id < 2; ++id) {
      std::string name = "app+0x" + std::to_string(10 * (id + 1));
      w.record2(RT_CALLSITE, &id, 4, name.data(), uint32_t(name.size()));
    }
    uint64_t ncoll = 0, nccs = 0;
    for (uint64_t k = 0; k < 6; ++k) {
      arcoll_rec_coll c{};
      c.comm_id = k % 2 ? comm_id : 0;
      c.seq = k / 2;
      c.bytes = 4096u << k;
      c.step = 2 * k;
      c.t_entry = 10.0 + k + 0.01 * r;
      c.t_exit = c.t_entry + 0.05;
      c.callsite = uint32_t(k % 2);
      c.op = k % 2 ? OP_ALLREDUCE : OP_BCAST;
      c.root = k % 2 ? ARCOLL_ROOT_NONE : 0;
      w.record(RT_COLL, &c, sizeof c);
      unsigned char ctr[16];
      int64_t v = int64_t(1000 * (k + 1) + r);
      std::memcpy(ctr, &ncoll, 8);
      std::memcpy(ctr + 8, &v, 8);
      w.record(RT_COUNTERS, ctr, sizeof ctr);
      ncoll++;
      for (uint32_t mask : {1u, 2u}) {
        arcoll_rec_ccs e{2 * k + 1, int32_t(r), int32_t(r ^ mask), 65536u * (mask + k), 1 + mask, 0};
        w.record(RT_CCS, &e, sizeof e);
        nccs++;
      }
    }
    arcoll_rec_clock ck{1.0, 0.001 * r, 30.0, 0.002 * r, 1e-6, 1e-6, 1e-4, 1e-4, 1.001, 0};
    w.record(RT_CLOCK, &ck, sizeof ck);
    uint64_t end[2] = {ncoll, nccs};
    w.record(RT_RANK_END, end, sizeof end);
    if (!w.close()) throw std::runtime_error("cannot write " + part + ": " + w.error());
    file += slurp(part).substr(0, w.committed());
    std::remove(part.c_str());
  }
  return file + arcoll::trace::encode_trace_end(file.size(), kRanks);
}

struct Rec {
  size_t off;   // record header offset in the file
  uint32_t type, len;
  size_t block;  // offset of the enclosing RT_BLOCK (npos at top level)
  uint32_t rank;
};

// Every record of a valid trace, top level and inside blocks.
std::vector<Rec> walk(const std::string &f) {
  std::vector<Rec> out;
  size_t off = sizeof(arcoll_trace_file_header);
  while (off + 8 <= f.size()) {
    arcoll_record_header rh;
    std::memcpy(&rh, &f[off], 8);
    out.push_back({off, rh.type, rh.length, std::string::npos, 0});
    if (rh.type == RT_BLOCK) {
      arcoll_block_header bh;
      std::memcpy(&bh, &f[off + 8], sizeof bh);
      out.back().rank = bh.rank;
      for (size_t q = off + 8 + sizeof bh; q < off + 8 + rh.length;) {
        arcoll_record_header ih;
        std::memcpy(&ih, &f[q], 8);
        out.push_back({q, ih.type, ih.length, off, bh.rank});
        q += 8 + ih.length;
      }
    }
    off += 8 + rh.length;
  }
  return out;
}

const Rec &find(const std::vector<Rec> &recs, uint32_t type, uint32_t rank, int nth = 0) {
  for (const Rec &r : recs)
    if (r.type == type && r.rank == rank && nth-- == 0) return r;
  throw std::runtime_error("corpus: record type " + std::to_string(type) + " of rank " + std::to_string(rank) +
                           " not found in the valid trace");
}

template <class T>
void poke(std::string &f, size_t off, T v) {
  std::memcpy(&f[off], &v, sizeof v);
}

// Recomputes the checksum of the block at `block` (after a patch inside it).
void reseal_block(std::string &f, size_t block) {
  uint32_t len;
  std::memcpy(&len, &f[block + 4], 4);
  poke(f, block + 8, checksum64(&f[block + 16], len - 8));
}
void reseal_header(std::string &f) { poke(f, 32, checksum64(&f[0], 32)); }
std::string reseal_end(std::string f) {  // re-encodes RT_TRACE_END for the body as it now is
  size_t body = f.size() - 32;
  uint32_t n;
  std::memcpy(&n, &f[12], 4);
  return f.substr(0, body) + arcoll::trace::encode_trace_end(body, n);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: arcoll-trace-corpus OUTDIR  (writes valid.arctrace, the corrupted cases and cases.tsv)\n";
    return 2;
  }
  const std::string dir = argv[1];
  try {
    const std::string good = valid_trace(dir);
    const std::vector<Rec> recs = walk(good);
    std::ofstream tsv(dir + "/cases.tsv", std::ios::trunc);
    auto emit = [&](const std::string &name, const std::string &bytes, const std::string &expect) {
      std::ofstream(dir + "/" + name + ".arctrace", std::ios::binary | std::ios::trunc) << bytes;
      tsv << name << '\t' << expect << '\n';
    };
    std::ofstream(dir + "/valid.arctrace", std::ios::binary | std::ios::trunc) << good;
    auto patched = [&](const std::function<void(std::string &)> &fn) {
      std::string f = good;
      fn(f);
      return f;
    };
    auto flip = [&](size_t off, unsigned char mask) {
      return patched([&](std::string &f) { f[off] = char(f[off] ^ mask); });
    };
    const size_t G = good.size(), B0 = sizeof(arcoll_trace_file_header);  // B0: first block
    const Rec &blk1 = find(recs, RT_BLOCK, 1, 1);  // rank 1's second block

    // Truncated: inside the header, at and just after it, inside a block, at
    // a block boundary, without the end record, inside it.
    for (size_t n : {size_t(0), size_t(5), size_t(11), size_t(39), B0, B0 + 1, B0 + 7, B0 + 100, blk1.off, G / 2,
                     G - 32, G - 1})
      emit("truncated_at_" + std::to_string(n), good.substr(0, n), "truncated");

    // Flipped bytes (no reseal): the checksums or the framing catch them.
    emit("flip_magic", flip(0, 0x01), "bad magic");
    emit("flip_version", flip(8, 0x01), "trace format version 2");
    emit("flip_nranks_low", flip(12, 0x01), "checksum mismatch in the file header");
    emit("flip_nranks_high", flip(15, 0x80), "checksum mismatch in the file header");
    emit("flip_created", flip(20, 0x10), "checksum mismatch in the file header");
    emit("flip_flags", flip(24, 0x01), "checksum mismatch in the file header");
    emit("flip_header_checksum", flip(33, 0x04), "checksum mismatch in the file header");
    emit("flip_block_type", flip(B0, 0x02), "where a record block (RT_BLOCK)");
    emit("flip_block_length_low", flip(B0 + 4, 0x01), "checksum mismatch in record block");
    emit("flip_block_length_high", flip(B0 + 7, 0x80), "truncated record block");
    emit("flip_block_checksum", flip(B0 + 8, 0x01), "checksum mismatch in record block 0 of the section of rank 0");
    emit("flip_block_rank", flip(B0 + 16, 0x01), "checksum mismatch in record block 0");
    emit("flip_block_index", flip(B0 + 20, 0x01), "checksum mismatch in record block");
    const Rec &rb = find(recs, RT_RANK_BEGIN, 2), &comm = find(recs, RT_COMM, 1);
    const Rec &coll = find(recs, RT_COLL, 2, 3), &ccs = find(recs, RT_CCS, 3, 5);
    const Rec &names = find(recs, RT_COUNTER_NAMES, 0), &ctr = find(recs, RT_COUNTERS, 1, 2);
    const Rec &end = find(recs, RT_RANK_END, 3), &coll1 = find(recs, RT_COLL, 1, 1);
    emit("flip_host_len", flip(rb.off + 8 + 8, 0x80), "checksum mismatch in record block 0 of the section of rank 2");
    emit("flip_record_type", flip(coll.off, 0x08), "of the section of rank 2");
    emit("flip_record_length", flip(coll.off + 4, 0x40), "checksum mismatch in record block");
    emit("flip_coll_time", flip(coll.off + 8 + 32 + 7, 0x01), "checksum mismatch in record block");
    emit("flip_coll_bytes", flip(coll.off + 8 + 16 + 2, 0x01), "checksum mismatch in record block");
    emit("flip_ccs_bytes", flip(ccs.off + 8 + 16, 0x01), "of the section of rank 3");
    emit("flip_comm_size", flip(comm.off + 8 + 11, 0x40), "of the section of rank 1");
    emit("flip_counter_value", flip(ctr.off + 8 + 8, 0x01), "checksum mismatch in record block");
    emit("flip_end_body_bytes", flip(G - 24 + 8, 0x01), "checksum mismatch in the end-of-trace record");
    emit("flip_end_checksum", flip(G - 24, 0x01), "checksum mismatch in the end-of-trace record");
    emit("flip_end_type", flip(G - 32, 0x04), "record type 15 (unknown record) where a record block");
    emit("flip_last_byte", flip(G - 1, 0x01), "checksum mismatch in the end-of-trace record");

    // Huge or wrong counts with valid checksums: the bounds checks.
    auto header_nranks = [&](uint32_t n) {
      return reseal_end(patched([&](std::string &f) { poke(f, 12, n), reseal_header(f); }));
    };
    emit("nranks_11500000", header_nranks(11500000u), "header field nranks = 11500000");
    emit("nranks_max", header_nranks(0xFFFFFFFFu), "header field nranks = 4294967295");
    emit("nranks_zero", header_nranks(0), "header field nranks = 0");
    emit("nranks_one", header_nranks(1), "RT_COMM world rank 3 out of range [-1, 1)");
    auto in_block = [&](const Rec &r, size_t field, auto v) {
      return patched([&](std::string &f) { poke(f, r.off + field, v), reseal_block(f, r.block); });
    };
    emit("comm_size_huge", in_block(comm, 8 + 8, uint32_t(0x3FFFFFFF)), "RT_COMM member count field 1073741823");
    emit("host_len_huge", in_block(rb, 8 + 8, uint32_t(0xFFFFFFF0)), "host name length field 4294967280");
    emit("counter_names_huge", in_block(names, 8, uint32_t(0xFFFFFFFF)), "RT_COUNTER_NAMES count field 4294967295");
    emit("record_length_huge", in_block(coll, 4, uint32_t(0xFFFFFFF0)), "crosses the end of its block");
    emit("rank_end_counts_huge", in_block(end, 8, uint64_t(1) << 62), "announces 4611686018427387904 RT_COLL");
    emit("callsite_id_huge", in_block(coll1, 8 + 48, uint32_t(0xFFFFFF)), "call-site id 16777215");
    emit("ccs_destination_huge", in_block(ccs, 8 + 12, int32_t(0x7FFFFFFF)), "destination rank 2147483647");
    emit("block_index_wrong", patched([&](std::string &f) { poke(f, blk1.off + 20, uint32_t(7)), reseal_block(f, blk1.off); }),
         "record block 7 of rank 1 where block 1 must come");
    emit("block_rank_huge", patched([&](std::string &f) { poke(f, B0 + 16, uint32_t(1u << 30)), reseal_block(f, B0); }),
         "record block of rank 1073741824, out of range");
    emit("block_lost", reseal_end(good.substr(0, blk1.off) + good.substr(blk1.off + 8 + blk1.len)),
         "where block 1 must come");
    emit("end_body_bytes_wrong", patched([&](std::string &f) {
           poke(f, G - 16, uint64_t(G));
           poke(f, G - 24, checksum64(&f[G - 16], 16));
         }),
         "blocks lost or duplicated");
    emit("bytes_after_end", good + std::string(16, '\0'), "16 bytes after the end-of-trace record");

    // Versions and magic.
    for (uint32_t v : {0u, 1u, 2u, 4u, 0xFFFFFFFFu})
      emit("version_" + std::to_string(v), patched([&](std::string &f) { poke(f, 8, v), reseal_header(f); }),
           "trace format version " + std::to_string(v) + ", this reader reads version 3");
    emit("magic_wrong", patched([&](std::string &f) { f.replace(0, 8, "ARCTRACF"); }), "bad magic");
    emit("magic_zeros", std::string(4096, '\0'), "bad magic");
    emit("magic_text", "this is not a trace at all, just some text long enough for a header\n", "bad magic");
  } catch (const std::exception &e) {
    std::cerr << "arcoll-trace-corpus: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
