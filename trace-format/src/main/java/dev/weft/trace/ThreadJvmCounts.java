package dev.weft.trace;

/**
 * What the JVM itself counted for a recorded thread (its {@code ThreadInfo}) between the start of
 * the recording, or the thread's start if later, and the thread's end or the trace's close: a
 * cross-check of what was recorded.
 *
 * @param stream the thread's stream
 * @param blockedCount times the thread blocked entering a monitor ({@code getBlockedCount()})
 * @param waitedCount times it waited or parked ({@code getWaitedCount()})
 */
public record ThreadJvmCounts(int stream, long blockedCount, long waitedCount) {}
