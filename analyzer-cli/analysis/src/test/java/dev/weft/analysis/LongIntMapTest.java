package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongIntMapTest {
  @Test
  void behavesLikeAHashMapUnderRandomPutsAndRemoves() {
    LongIntMap m = new LongIntMap(4);
    Map<Long, Integer> ref = new HashMap<>();
    Random rnd = new Random(42);
    for (int i = 0; i < 200_000; i++) {
      // Few distinct keys, including 0, negatives and the map's internal free marker.
      long key = rnd.nextInt(10) == 0 ? Long.MIN_VALUE : rnd.nextInt(3000) - 1000;
      int op = rnd.nextInt(3);
      if (op == 0) {
        m.put(key, i);
        ref.put(key, i);
      } else if (op == 1) {
        Integer expected = ref.remove(key);
        assertEquals(expected == null ? -1 : expected, m.remove(key));
      } else {
        Integer expected = ref.get(key);
        assertEquals(expected == null ? -1 : expected, m.get(key));
      }
      assertEquals(ref.size(), m.size());
    }
    Map<Long, Integer> seen = new HashMap<>();
    m.forEach(seen::put);
    assertEquals(ref, seen);
  }
}
