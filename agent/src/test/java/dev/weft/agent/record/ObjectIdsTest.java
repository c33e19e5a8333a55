package dev.weft.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ObjectIdsTest {

  @Test
  void idsAreSmallStableAndFirstSeenOnce() {
    ObjectIds ids = new ObjectIds(1 << 10);
    Object a = new Object();
    Object b = new Object();
    long firstA = ids.lookup(a);
    long firstB = ids.lookup(b);
    assertTrue((firstA & ObjectIds.FIRST_SIGHT) != 0);
    assertTrue((firstB & ObjectIds.FIRST_SIGHT) != 0);
    long idA = ObjectIds.id(firstA);
    long idB = ObjectIds.id(firstB);
    assertEquals(1, idA);
    assertEquals(2, idB);
    assertEquals(idA, ids.lookup(a)); // no first-sight mark the second time
    assertEquals(idB, ids.lookup(b));
  }

  @Test
  void objectsBeyondTheTableKeepDistinctIdsAboveEveryDenseId() {
    ObjectIds ids = new ObjectIds(1 << 4);
    List<Object> objects = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    int untabled = 0;
    for (int i = 0; i < 200; i++) {
      Object o = new Object();
      objects.add(o);
      long id = ObjectIds.id(ids.lookup(o));
      if (id >= ObjectIds.UNTABLED) {
        untabled++;
        assertEquals(id, ids.lookup(o)); // stable, never marked as first sight
      }
      seen.add(id);
    }
    assertTrue(untabled >= 200 - 16, "at most 16 objects fit, untabled: " + untabled);
    // Distinct objects, distinct ids (identity hash codes of 200 objects practically never meet).
    assertEquals(200, seen.size());
    for (Object o : objects) {
      assertNotEquals(0, ids.lookup(o));
    }
  }

  @Test
  void threadsAgreeOnIdsAndOnlyOneSeesAnObjectFirst() throws Exception {
    ObjectIds ids = new ObjectIds(1 << 12);
    Object[] shared = new Object[500];
    for (int i = 0; i < shared.length; i++) {
      shared[i] = new Object();
    }
    int threads = 4;
    CyclicBarrier start = new CyclicBarrier(threads);
    AtomicInteger firstSights = new AtomicInteger();
    ConcurrentHashMap<Integer, Long> idOf = new ConcurrentHashMap<>();
    AtomicInteger disagreements = new AtomicInteger();
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread th =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                for (int i = 0; i < shared.length; i++) {
                  long found = ids.lookup(shared[i]);
                  if ((found & ObjectIds.FIRST_SIGHT) != 0) {
                    firstSights.incrementAndGet();
                  }
                  Long before = idOf.putIfAbsent(i, ObjectIds.id(found));
                  if (before != null && before != ObjectIds.id(found)) {
                    disagreements.incrementAndGet();
                  }
                }
              });
      all.add(th);
      th.start();
    }
    for (Thread th : all) {
      th.join();
    }
    assertEquals(0, disagreements.get());
    assertEquals(shared.length, firstSights.get());
    assertEquals(shared.length, new HashSet<>(idOf.values()).size());
  }
}
