package dev.weft.export.otf2;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The global definitions file ({@code traces.def}): clock properties, strings, the system tree, the
 * JVM's location group, one location per thread, regions, groups and communicators (thread teams
 * and the thread contingent). Records are collected while the events are written and written at the
 * end, strings first, since locations carry their event counts.
 */
final class Otf2Definitions {
  // Record types of the global definitions.
  private static final int CLOCK_PROPERTIES = 5;
  private static final int STRING = 10;
  private static final int SYSTEM_TREE_NODE = 12;
  private static final int LOCATION_GROUP = 13;
  private static final int LOCATION = 14;
  private static final int REGION = 15;
  private static final int GROUP = 18;
  private static final int COMM = 22;

  // Region roles.
  static final int ROLE_FUNCTION = 1;
  static final int ROLE_WRAPPER = 2;
  static final int ROLE_CODE = 4;
  static final int ROLE_PARALLEL = 5;
  static final int ROLE_CRITICAL = 12;
  static final int ROLE_BARRIER = 15;
  static final int ROLE_TASK = 20;
  static final int ROLE_TASK_CREATE = 21;
  static final int ROLE_TASK_WAIT = 22;
  static final int ROLE_THREAD_CREATE = 32;
  static final int ROLE_THREAD_WAIT = 33;

  // Paradigms.
  static final int PARADIGM_USER = 1;
  static final int PARADIGM_OPENMP = 3;
  static final int PARADIGM_MEASUREMENT_SYSTEM = 6;
  static final int PARADIGM_PTHREAD = 7;

  // Group types (current, and the numbering before OTF2 1.2 that the record still carries).
  static final int GROUP_COMM_LOCATIONS = 4;
  static final int GROUP_COMM_GROUP = 5;
  private static final int GROUP_PRE_1_2_MPI_GROUP = 4;
  private static final int GROUP_PRE_1_2_MPI_LOCATIONS = 6;

  private static final int LOCATION_GROUP_PROCESS = 1;
  private static final int LOCATION_CPU_THREAD = 1;

  /** Longest string written: a record must fit in a chunk. */
  private static final int MAX_STRING_CHARS = 16 * 1024;

  private final Map<String, Integer> strings = new LinkedHashMap<>();
  private final List<Encoding> system = new ArrayList<>();
  private final List<Encoding> records = new ArrayList<>();
  private final Encoding data = new Encoding();
  private Encoding clock;

  /** The id of {@code s}, defining it on first use. */
  long string(String s) {
    String v = s.length() > MAX_STRING_CHARS ? s.substring(0, MAX_STRING_CHARS) : s;
    return strings.computeIfAbsent(v, k -> strings.size());
  }

  /** A string id, or undefined for an empty string. */
  long optionalString(String s) {
    return s == null || s.isEmpty() ? Encoding.UNDEFINED_32 : string(s);
  }

  /** Ticks per second, the first timestamp, and the time from the first to the last event. */
  void clockProperties(long ticksPerSecond, long globalOffset, long traceLength) {
    data.clear();
    data.u64(ticksPerSecond).u64(globalOffset).u64(traceLength);
    clock = new Encoding().record(CLOCK_PROPERTIES, data);
  }

  void systemTreeNode(int self, String name, String className, long parent) {
    data.clear();
    data.u32(self).u32(string(name)).u32(string(className)).u32(parent);
    system.add(new Encoding().record(SYSTEM_TREE_NODE, data));
  }

  /** A process: the JVM. */
  void locationGroup(int self, String name, int systemTreeParent) {
    data.clear();
    data.u32(self).u32(string(name)).u8(LOCATION_GROUP_PROCESS).u32(systemTreeParent);
    system.add(new Encoding().record(LOCATION_GROUP, data));
  }

  /** A thread with its number of events. */
  void location(long self, String name, long events, int group) {
    data.clear();
    data.u64(self).u32(string(name)).u8(LOCATION_CPU_THREAD).u64(events).u32(group);
    system.add(new Encoding().record(LOCATION, data));
  }

  /** A region; {@code file} "" and lines 0 when unknown. */
  void region(
      long self,
      String name,
      String canonicalName,
      String description,
      String file,
      int beginLine,
      int endLine,
      int role,
      int paradigm) {
    data.clear();
    data.u32(self).u32(string(name)).u32(string(description)).u8(regionTypeBefore11(role));
    data.u32(optionalString(file)).u32(beginLine).u32(endLine);
    data.u32(string(canonicalName)).u8(role).u8(paradigm).u32(0); // no region flags
    add(REGION);
  }

  /** A group of locations (ids) or of indices into such a group ({@link #GROUP_COMM_GROUP}). */
  void group(long self, String name, int type, int paradigm, long[] members) {
    data.clear();
    int before12 =
        type == GROUP_COMM_LOCATIONS ? GROUP_PRE_1_2_MPI_LOCATIONS : GROUP_PRE_1_2_MPI_GROUP;
    data.u32(self).u32(string(name)).u8(before12).u32(members.length);
    for (long m : members) {
      data.u64(m);
    }
    data.u8(type).u8(paradigm).u32(0); // no group flags
    add(GROUP);
  }

  /** A communicator: a thread team or the thread contingent. */
  void comm(long self, String name, long group) {
    data.clear();
    data.u32(self).u32(string(name)).u32(group).u32(Encoding.UNDEFINED_32); // no parent
    add(COMM);
  }

  /** Writes the file; returns the number of definitions in it. */
  long write(Path file, int chunkSize) throws IOException {
    ChunkedFile out = new ChunkedFile(file, chunkSize);
    long n = 0;
    if (clock != null) {
      out.definition(clock);
      n++;
    }
    Encoding r = new Encoding();
    for (Map.Entry<String, Integer> s : strings.entrySet()) {
      data.clear();
      data.u32(s.getValue()).string(s.getKey());
      r.clear();
      out.definition(r.record(STRING, data));
      n++;
    }
    for (Encoding rec : system) { // locations before the groups that list them
      out.definition(rec);
      n++;
    }
    for (Encoding rec : records) {
      out.definition(rec);
      n++;
    }
    out.close();
    return n;
  }

  private void add(int type) {
    records.add(new Encoding().record(type, data));
  }

  /** The region type field OTF2 readers before 1.1 used, derived from the role. */
  private static int regionTypeBefore11(int role) {
    switch (role) {
      case ROLE_FUNCTION:
        return 1; // function
      case ROLE_CODE:
        return 3; // user region
      case ROLE_PARALLEL:
        return 5; // parallel
      case ROLE_CRITICAL:
        return 12; // critical
      case ROLE_BARRIER:
        return 14; // barrier
      case ROLE_TASK:
        return 20; // task
      case ROLE_TASK_WAIT:
        return 21; // task wait
      case ROLE_TASK_CREATE:
        return 33; // task create
      default:
        return 0; // unknown
    }
  }
}
