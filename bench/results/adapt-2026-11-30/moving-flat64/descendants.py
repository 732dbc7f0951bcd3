#!/usr/bin/env python3
"""Descendants of each position in two binary-tree shapes over P = 64 positions (position 0 = the root),
and of the late ranks of coll_loop's `moving` scenario (rank ((call/10) x 37 + 11) % P, the next rank if
that is the root), one per window of 10 calls.
  in-order: collectives/tree_extra.c arcoll_tree_binary (root -> the middle of 1..63 -> in-order subtrees)
  heap:     children 2i + 1, 2i + 2
A late rank holds its descendants by its delay at every call: the sums are the per-window costs' shape."""
P = 64
desc_in, desc_heap = {}, {}


def inorder(lo, hi):
    if lo > hi:
        return 0
    mid = (lo + hi) // 2
    desc_in[mid] = inorder(lo, mid - 1) + inorder(mid + 1, hi)
    return desc_in[mid] + 1


def heap(r):
    desc_heap[r] = sum(heap(c) + 1 for c in (2 * r + 1, 2 * r + 2) if c < P)
    return desc_heap[r]


inorder(1, P - 1)
heap(0)
seq = [((w * 37 + 11) % P) or 1 for w in range(20)]
print("late rank per window:", seq)
print("in-order descendants:", [desc_in[r] for r in seq], "sum", sum(desc_in[r] for r in seq))
print("heap descendants:    ", [desc_heap[r] for r in seq], "sum", sum(desc_heap[r] for r in seq))
print("mean descendants over positions 1..63: in-order %.2f, heap %.2f" %
      (sum(desc_in.values()) / (P - 1), sum(v for k, v in desc_heap.items() if k) / (P - 1)))
