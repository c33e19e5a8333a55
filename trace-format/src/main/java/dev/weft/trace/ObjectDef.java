package dev.weft.trace;

/**
 * A synchronisation object: a monitor, lock, barrier, latch or phaser.
 *
 * @param id the id OBJECT fields carry
 * @param kind what it is
 * @param className the object's class
 * @param parties barrier parties or latch count when known, else 0
 */
public record ObjectDef(long id, ConstructKind kind, String className, int parties) {}
