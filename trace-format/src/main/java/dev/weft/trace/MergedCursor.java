package dev.weft.trace;

import java.util.List;

/**
 * All streams of a trace as one time-ordered sequence: a k-way merge (binary heap) of the
 * per-thread cursors. Ties are broken by stream id, so the order is deterministic. Memory is one
 * cursor buffer per stream.
 */
final class MergedCursor implements EventCursor {
  private final StreamCursor[] heap;
  private int size;
  private StreamCursor current;
  private boolean started;

  MergedCursor(List<StreamCursor> streams) {
    this.heap = streams.toArray(new StreamCursor[0]);
  }

  @Override
  public boolean next() {
    if (!started) {
      started = true;
      for (StreamCursor c : heap) {
        if (c.next()) {
          heap[size++] = c;
        }
      }
      for (int i = size / 2 - 1; i >= 0; i--) {
        siftDown(i);
      }
    } else if (current != null) {
      if (current.next()) {
        siftDown(0);
      } else {
        heap[0] = heap[--size];
        heap[size] = null;
        if (size > 0) {
          siftDown(0);
        }
      }
    }
    if (size == 0) {
      current = null;
      return false;
    }
    current = heap[0];
    return true;
  }

  private void siftDown(int i) {
    StreamCursor x = heap[i];
    for (; ; ) {
      int child = 2 * i + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && before(heap[child + 1], heap[child])) {
        child++;
      }
      if (!before(heap[child], x)) {
        break;
      }
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = x;
  }

  private static boolean before(StreamCursor a, StreamCursor b) {
    long ta = a.time();
    long tb = b.time();
    return ta < tb || (ta == tb && a.stream() < b.stream());
  }

  @Override
  public EventKind kind() {
    return current.kind();
  }

  @Override
  public long time() {
    return current.time();
  }

  @Override
  public int stream() {
    return current.stream();
  }

  @Override
  public long field(int index) {
    return current.field(index);
  }
}
